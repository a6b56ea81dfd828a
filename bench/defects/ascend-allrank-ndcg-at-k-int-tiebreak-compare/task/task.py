"""NDCG@k of padded slates, as allRank's metrics.ndcg(y_pred, y_true, ats) evaluates a validation pass.

Slates are padded to a common slate_length L; padded positions carry y_true = -1 (allRank's
PADDED_Y_VALUE) and sit at the end of each slate. Padded documents get score -inf and gain 0, the
documents are sorted by y_pred (descending) and
    DCG@k  = sum over positions p < k of (2^rel(p) - 1) / log2(p + 2),
IDCG@k the same with the documents sorted by y_true, and NDCG@k = DCG@k / IDCG@k, or 1.0
(allRank's filler_value) where IDCG@k = 0. A cut-off above L counts the whole slate (allRank clamps
ats to L). ats is a float32 vector of cut-offs. Returns ndcg [B, len(ats)] fp32.
"""
import torch

META = {
    "name": "ndcg_at_k",
    "level": 2,
    "category": "learning-to-rank",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 5, "L": 24},
        "ragged": {"B": 7, "L": 45},
        "large": {"B": 8192, "L": 240},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) stride over the slates; per slate the whole padded "
                      "row (BL = next_power_of_2(L)) is the partner tile and blocks of 8 documents are ranked "
                      "against it twice (by y_pred for DCG, by y_true for IDCG: larger key, or equal key at an "
                      "earlier position, compared as fp32), the rank sums run along the contiguous axis and "
                      "the discounted gains are summed under the float cut-off compare; one store of the "
                      "[len(ats)] row per slate; no autotune.",
    "deterministic": True,
}
ATS = (1, 3, 5, 10, 20, 30, 60, 240)
# MSLR-WEB30K relevance grades 0..4 occur roughly in these proportions.
LABEL_PROBS = (0.52, 0.32, 0.13, 0.02, 0.01)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """y_pred [B, L] model scores, y_true [B, L] grades 0..4 with -1 padding at the tail, ats [8] cut-offs."""
    s = META["sizes"][size]
    b, length = s["B"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # list lengths 1..L (MSLR-WEB30K lists average ~120 documents; allRank pads/truncates to 240)
    lengths = torch.randint(1, length + 1, (b,), generator=g)
    lengths[0] = length
    labels = torch.multinomial(torch.tensor(LABEL_PROBS), b * length, replacement=True,
                               generator=g).view(b, length).to(torch.float32)
    if b > 1:
        labels[1] = 0.0  # a slate without relevant documents: IDCG = 0, NDCG = filler 1.0
    y_pred = torch.randn(b, length, generator=g) + 0.5 * labels
    pad = torch.arange(length)[None, :] >= lengths[:, None]
    y_true = labels.masked_fill(pad, -1.0)
    ats = torch.tensor(ATS, dtype=torch.float32)
    return y_pred.to(dt).to(device), y_true.to(dt).to(device), ats.to(device)


def _dcg(key: torch.Tensor, rel: torch.Tensor, ats: list[int]) -> torch.Tensor:
    order = torch.sort(key, dim=1, descending=True, stable=True).indices
    rel_sorted = torch.gather(rel, 1, order)
    disc = 1.0 / torch.log2(torch.arange(rel.shape[1], dtype=torch.float64, device=rel.device) + 2.0)
    cum = torch.cumsum((torch.pow(2.0, rel_sorted) - 1.0) * disc, dim=1)
    return cum[:, [min(a, rel.shape[1]) - 1 for a in ats]]


def reference(y_pred: torch.Tensor, y_true: torch.Tensor, ats: torch.Tensor) -> torch.Tensor:
    cut = [int(a) for a in ats.tolist()]
    pad = y_true == -1.0
    rel = y_true.double().masked_fill(pad, 0.0)
    dcg = _dcg(y_pred.double().masked_fill(pad, float("-inf")), rel, cut)
    idcg = _dcg(y_true.double().masked_fill(pad, float("-inf")), rel, cut)
    ndcg = torch.where(idcg > 0, dcg / idcg.clamp(min=1e-30), torch.ones_like(dcg))
    return ndcg.to(y_pred.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    b, length = s["B"], s["L"]
    return {"bytes": 8 * b * length + 32 * b, "flops": 12 * b * length * length}
