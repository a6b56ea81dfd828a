"""RankNet pairwise logistic loss with gain-difference weights, per slate (allRank rankNet, weight_by_diff_powed).

For slate q with graded labels y (-1 marks padding) and scores s:
    loss_q = sum_{i, j: y_i > y_j >= 0} (2^y_i - 2^y_j) * softplus(s_j - s_i) / #{(i, j): y_i > y_j >= 0}
"""
import torch

META = {
    "name": "ranknet_pairwise_slate_loss",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"Q": 5, "L": 40},
        "ragged": {"Q": 6, "L": 83},
        "large": {"Q": 512, "L": 1024},
    },
    "baseline_notes": "Two kernels. Pair tiles: grid (block of 64 candidates i, slate); each program holds its i-block "
                      "and walks the slate's j-blocks in 64-wide tiles, weight * softplus(s_j - s_i) on the ordered "
                      "pairs in fp32 registers, then writes one partial loss and pair count. Finalize: one program "
                      "per slate sums its partials and divides. 4 warps, no autotune.",
    "deterministic": True,
}


def _lengths(s: dict, g: torch.Generator) -> torch.Tensor:
    """Valid candidates per slate in [L/2, L]; the first slate is full."""
    lengths = torch.randint(s["L"] // 2, s["L"] + 1, (s["Q"],), generator=g)
    lengths[0] = s["L"]
    return lengths


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """scores [Q, L], labels [Q, L] (grades 0-4, -1 past the slate's length), lengths [Q] int32."""
    s = META["sizes"][size]
    Q, L = s["Q"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lengths = _lengths(s, g)
    scores = torch.randn(Q, L, generator=g) * 1.5
    labels = torch.randint(0, 5, (Q, L), generator=g).float()
    labels[torch.arange(L)[None, :] >= lengths[:, None]] = -1.0
    return scores.to(dt).to(device), labels.to(dt).to(device), lengths.to(torch.int32).to(device)


def reference(scores: torch.Tensor, labels: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    out = torch.empty(scores.shape[0], device=scores.device, dtype=scores.dtype)
    for c in range(0, scores.shape[0], 16):
        s, y = scores[c:c + 16].double(), labels[c:c + 16].double()
        ordered = (y[:, :, None] > y[:, None, :]) & (y[:, None, :] >= 0)
        weight = torch.exp2(y)[:, :, None] - torch.exp2(y)[:, None, :]
        pair_loss = torch.nn.functional.softplus(s[:, None, :] - s[:, :, None])
        total = torch.where(ordered, weight * pair_loss, torch.zeros_like(pair_loss)).sum((1, 2))
        out[c:c + 16] = (total / ordered.sum((1, 2)).clamp(min=1)).to(scores.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    lengths = _lengths(s, torch.Generator().manual_seed(0))
    pairs = int((lengths.double() ** 2).sum())
    return {"bytes": 8 * s["Q"] * s["L"] + 8 * s["Q"], "flops": 16 * pairs}
