"""Sample covariance of a tall feature matrix by streaming Welford/Chan co-moment merges (cuML PCA fit).

cov = (X - mean)^T (X - mean) / (N - 1) for X [N, C] row-major; the kernels walk the rows in
chunks and merge each chunk's mean and centred co-moment into running ones (Chan et al.).
"""
import torch

META = {
    "name": "pca_covariance",
    "level": 2,
    "category": "statistics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 100, "C": 24},
        "ragged": {"N": 333, "C": 70},
        "large": {"N": 1000000, "C": 512},
    },
    "baseline_notes": "Partial kernel over (128x128 output tile, row chunk): each program merges 32-row chunks "
                      "(column means, centred tl.dot co-moment, Chan update) over its ~4-wave share of the rows "
                      "and writes a partial mean/co-moment; a second kernel merges the partials per tile and "
                      "divides by N - 1. 8 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C]: correlated features with per-column offsets and scales."""
    s = META["sizes"][size]
    N, C = s["N"], s["C"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    rank = max(4, C // 8)
    mix = torch.randn(rank, C, generator=g) / rank ** 0.5
    x = torch.randn(N, rank, generator=g) @ mix + 0.5 * torch.randn(N, C, generator=g)
    x = x * (0.5 + torch.rand(C, generator=g)) + 3.0 * torch.randn(C, generator=g)
    return (x.to(dt).contiguous().to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.cov(x.double().T).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, C = s["N"], s["C"]
    return {"bytes": 4 * (N * C + C * C), "flops": 2 * N * C * C}
