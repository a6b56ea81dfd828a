"""Anomaly Transformer association discrepancy (thuml/Anomaly-Transformer solver.py + AnomalyAttention, MindSpore port).

Each of the E encoder layers gives series attention S [B, H, L, L] (softmax rows) and a learned
scale sigma [B, H, L] (already passed through sigmoid(5x) + 1e-5 and 3**x - 1). The prior
association is the Gaussian kernel P[i, j] ~ exp(-(i - j)^2 / (2 sigma_i^2)), rescaled so each row
sums to 1. The discrepancy per window position is the symmetric KL of the solver's my_kl_loss
(eps 1e-4), averaged over heads and summed over layers:
    dis[b, i] = sum_e mean_h sum_j (S - P) * (log(S + 1e-4) - log(P + 1e-4))
"""
import math

import torch

META = {
    "name": "anomaly_transformer_association_discrepancy",
    "level": 2,
    "category": "loss",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"E": 2, "B": 2, "H": 2, "L": 12},
        "ragged": {"E": 3, "B": 3, "H": 3, "L": 37},
        "large": {"E": 3, "B": 256, "H": 8, "L": 100},
    },
    "baseline_notes": "Persistent grid of 40 programs over (batch, block of 16 window positions) tiles; per layer "
                      "and head a [16, next_pow2(L)] tile of series rows, the Gaussian prior built in UB from the "
                      "16 sigmas, row-normalised, symmetric KL reduced along the rows and accumulated; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """series [E, B, H, L, L] (softmax rows), sigma [E, B, H, L] (> 0, as AnomalyAttention transforms it)."""
    s = META["sizes"][size]
    E, B, H, L = s["E"], s["B"], s["H"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    series = torch.softmax(torch.randn(E, B, H, L, L, generator=g) * 1.5, dim=-1)
    raw = torch.randn(E, B, H, L, generator=g)
    sigma = torch.pow(3.0, torch.sigmoid(raw * 5.0) + 1e-5) - 1.0
    return series.to(dt).to(device), sigma.to(dt).to(device)


def reference(series: torch.Tensor, sigma: torch.Tensor) -> torch.Tensor:
    L = series.shape[-1]
    pos = torch.arange(L, device=series.device, dtype=torch.float64)
    dist = (pos[:, None] - pos[None, :]).abs()
    sg = sigma.double()[..., None]
    prior = 1.0 / (math.sqrt(2 * math.pi) * sg) * torch.exp(-dist ** 2 / 2 / (sg ** 2))
    prior = prior / prior.sum(-1, keepdim=True)
    s = series.double()
    kl = lambda p, q: (p * (torch.log(p + 1e-4) - torch.log(q + 1e-4))).sum(-1)
    dis = kl(s, prior).mean(2) + kl(prior, s).mean(2)             # [E, B, L]
    return dis.sum(0).to(series.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    rows = s["E"] * s["B"] * s["H"] * s["L"]
    return {"bytes": 4 * (rows * s["L"] + rows + s["B"] * s["L"]), "flops": 14 * rows * s["L"]}
