"""Empirical semivariogram of a 2-D survey (gstat variogram() / scikit-gstat Variogram, Matheron estimator).

Every unordered point pair (i < j) whose separation h = |x_i - x_j| falls below the cutoff is put in
lag bin k = floor(h / lag_width) (n_lags equal-width bins, cutoff = n_lags * lag_width = one third of
the bounding-box diagonal, gstat's default); per bin gamma_k = sum (z_i - z_j)^2 / (2 N_k). Returns
(gamma [n_lags] fp32, N_k [n_lags] int32); empty bins have gamma 0.
"""
import math

import torch

META = {
    "name": "empirical_variogram",
    "level": 2,
    "category": "geostatistics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 40, "n_lags": 15},
        "ragged": {"N": 77, "n_lags": 15},
        "large": {"N": 16384, "n_lags": 15},
    },
    "baseline_notes": "Grid (row blocks of 32 points, 8 column splits); each program walks its share of the "
                      "upper-triangle 32x32 pair tiles, bins each pair by lag and keeps per-lag sums and counts "
                      "in registers, then adds them into fp64 sums / int32 counts with one vector atomic per "
                      "program; a one-program kernel divides. 4 warps, no autotune.",
    "deterministic": True,
}
EXTENT = 100.0  # survey square side, metres


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Sample coordinates xy [N, 2], measured values z [N], lag width (float) and number of lags (int)."""
    s = META["sizes"][size]
    n, n_lags = s["N"], s["n_lags"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xy = torch.rand(n, 2, generator=g) * EXTENT
    z = 1.5 * torch.sin(xy[:, 0] / 11.0) + torch.cos(xy[:, 1] / 17.0) + 0.3 * torch.randn(n, generator=g)
    cutoff = math.sqrt(2.0) * EXTENT / 3.0
    return xy.to(device=device, dtype=dt), z.to(device=device, dtype=dt), cutoff / n_lags, n_lags


def reference(xy: torch.Tensor, z: torch.Tensor, lag_width: float, n_lags: int) -> tuple:
    x, v = xy.double(), z.double()
    n = x.shape[0]
    sums = torch.zeros(n_lags, dtype=torch.float64, device=x.device)
    counts = torch.zeros(n_lags, dtype=torch.int64, device=x.device)
    cols = torch.arange(n, device=x.device)
    for start in range(0, n, 1024):
        rows = cols[start:start + 1024]
        h = (x[rows, None, :] - x[None, :, :]).pow(2).sum(-1).sqrt()
        lag = torch.floor(h / lag_width).long()
        keep = (cols[None, :] > rows[:, None]) & (lag < n_lags)
        sq = (v[rows, None] - v[None, :]).pow(2)
        sums += torch.bincount(lag[keep], weights=sq[keep], minlength=n_lags)
        counts += torch.bincount(lag[keep], minlength=n_lags)
    gamma = torch.where(counts > 0, sums / (2.0 * counts.clamp(min=1)), torch.zeros_like(sums))
    return gamma.to(xy.dtype), counts.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 12 * n, "flops": 12 * n * (n - 1) // 2}
