"""ColBERT late-interaction (MaxSim) scores of one query against PLAID's packed candidate passages:
score[p] = sum over query tokens of the max over the passage's tokens of <q_i, d_j>
(colbert.modeling.colbert.colbert_score_packed)."""
import torch

META = {
    "name": "colbert_maxsim_packed",
    "level": 2,
    "category": "fused",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"P": 6, "LQ": 32, "D": 128, "MIN_L": 3, "MAX_L": 90},
        "ragged": {"P": 9, "LQ": 27, "D": 96, "MIN_L": 1, "MAX_L": 131},
        "large": {"P": 4096, "LQ": 32, "D": 128, "MIN_L": 60, "MAX_L": 300},
    },
    "baseline_notes": "One program per passage: the query's token matrix is loaded once, each 64-token block "
                      "of the passage is scored against all query tokens with one tl.dot, a running max per "
                      "query token is kept over the blocks, and the maxima are summed; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Q [LQ, D] (L2-normalised query token embeddings, [MASK]-augmented to LQ), D_packed [T, D]
    (L2-normalised passage token embeddings, passages back to back) and doc_offsets [P + 1] int64."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lens = torch.randint(s["MIN_L"], s["MAX_L"] + 1, (s["P"],), generator=g)
    offsets = torch.zeros(s["P"] + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lens, 0)
    q = torch.nn.functional.normalize(torch.randn(s["LQ"], s["D"], generator=g), dim=-1)
    # each passage token leans towards one query token, as relevant candidates do
    n_tok = int(offsets[-1])
    lean = q[torch.randint(0, s["LQ"], (n_tok,), generator=g)] * torch.rand(n_tok, 1, generator=g)
    d = torch.nn.functional.normalize(torch.randn(n_tok, s["D"], generator=g) / s["D"] ** 0.5 + lean, dim=-1)
    return q.to(dt).to(device), d.to(dt).to(device), offsets.to(device)


def reference(q: torch.Tensor, d_packed: torch.Tensor, doc_offsets: torch.Tensor) -> torch.Tensor:
    n_docs = doc_offsets.numel() - 1
    lens = doc_offsets[1:] - doc_offsets[:-1]
    sims = d_packed.double() @ q.double().T  # [T, LQ]
    seg = torch.repeat_interleave(torch.arange(n_docs, device=q.device), lens)
    best = torch.full((n_docs, q.shape[0]), float("-inf"), dtype=torch.float64, device=q.device)
    best = best.scatter_reduce(0, seg[:, None].expand_as(sims), sims, reduce="amax", include_self=True)
    return best.sum(dim=1).float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    tokens = s["P"] * (s["MIN_L"] + s["MAX_L"]) // 2
    return {"bytes": 2 * tokens * s["D"] + 2 * s["LQ"] * s["D"] + 8 * (s["P"] + 1) + 4 * s["P"],
            "flops": 2 * tokens * s["LQ"] * s["D"]}
