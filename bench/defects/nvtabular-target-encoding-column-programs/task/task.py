"""Target-encoding transform of categorical columns, as in NVTabular's TargetEncoding op.

For every row i and categorical column c with id k = cats[i, c], the encoded value is the
smoothed mean target of that category, (sum[c, k] + p_smooth * prior) / (count[c, k] + p_smooth),
from the per-column statistics gathered at fit time (stats[c, k] = (sum, count)). Unseen ids
(count 0) fall back to the prior. The id matrix is sample-major [rows, columns], as a training
batch arrives from the data loader.
"""
import torch

META = {
    "name": "target_encode_transform",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 200, "C": 5, "V": 64},
        "ragged": {"N": 1001, "C": 26, "V": 333},
        "large": {"N": 4194304, "C": 26, "V": 16384},
    },
    "baseline_notes": "One program per block of 64 rows holding a [64, next_power_of_2(C)] tile of the id matrix "
                      "(contiguous rows), gathers the (sum, count) pair of each id from the column's table, "
                      "smooths toward the prior and stores the tile; 4 warps, no autotune.",
    "deterministic": True,
}

P_SMOOTH = 20.0  # NVTabular TargetEncoding's default p_smooth


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cats [N, C] int32 (heavy-tailed ids, 0 = rare/unseen), stats [C, V, 2] (sum, count), prior [1]."""
    s = META["sizes"][size]
    N, C, V = s["N"], s["C"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(N, C, generator=g)
    cats = (V ** u - 1.0).to(torch.int32).clamp_(0, V - 1)
    count = torch.floor(torch.rand(C, V, generator=g) ** 3 * 5000.0)
    count[:, 0] = 0.0
    rate = 0.05 + 0.4 * torch.rand(C, V, generator=g)
    total = torch.floor(count * rate)
    stats = torch.stack([total, count], dim=-1)
    prior = torch.tensor([0.2562])
    return cats.to(device), stats.to(dt).to(device), prior.to(dt).to(device)


def reference(cats: torch.Tensor, stats: torch.Tensor, prior: torch.Tensor) -> torch.Tensor:
    C = cats.shape[1]
    col = torch.arange(C, device=cats.device)[None, :]
    entry = stats[col, cats.long()]
    total, count = entry[..., 0].double(), entry[..., 1].double()
    enc = (total + P_SMOOTH * prior.double()) / (count + P_SMOOTH)
    return enc.to(stats.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["N"] * s["C"] + 8 * s["C"] * s["V"], "flops": 3 * s["N"] * s["C"]}
