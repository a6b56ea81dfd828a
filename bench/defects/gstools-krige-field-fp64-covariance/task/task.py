"""Kriging field on a raster from precomputed dual weights (GSTools Krige / simple kriging, Matern nu = 3/2).

The conditioning system (C + nugget I) w = z - mean is solved once; the field on the M raster cell
centres is then field(x0) = mean + sum_j w_j C(|x0 - x_j|) with C(r) = var (1 + s) exp(-s),
s = sqrt(3) r / len_scale. Coordinates fp32 [M, 2] / [N, 2], weights fp32 [N]; output fp32 [M].
"""
import math

import torch

META = {
    "name": "krige_field_dual_weights",
    "level": 2,
    "category": "geostatistics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 6, "W": 8, "N": 37},
        "ragged": {"H": 13, "W": 23, "N": 77},
        "large": {"H": 1024, "W": 1024, "N": 4096},
    },
    "baseline_notes": "One program per 64 raster cells, loop over the conditioning points in blocks of 32: "
                      "[64, 32] distances, Matern 3/2 covariance and weight products accumulated in an fp32 "
                      "register tile, one row sum at the end. 4 warps, no autotune.",
    "deterministic": True,
}
EXTENT = 100.0    # km
LEN_SCALE = 12.0  # km
VAR = 1.0
NUGGET = 0.05


def _matern32(r: torch.Tensor) -> torch.Tensor:
    s = math.sqrt(3.0) * r / LEN_SCALE
    return VAR * (1.0 + s) * torch.exp(-s)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Raster cell centres [H*W, 2], conditioning points [N, 2], dual weights [N], mean, var, len_scale."""
    s = META["sizes"][size]
    h, w, n = s["H"], s["W"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cond = torch.rand(n, 2, generator=g) * EXTENT
    z = 2.0 + torch.sin(cond[:, 0] / 13.0) + torch.cos(cond[:, 1] / 17.0) + 0.2 * torch.randn(n, generator=g)
    mean = float(z.mean())
    gy, gx = torch.meshgrid((torch.arange(h) + 0.5) * (EXTENT / h), (torch.arange(w) + 0.5) * (EXTENT / w),
                            indexing="ij")
    grid = torch.stack([gx.reshape(-1), gy.reshape(-1)], dim=1)
    cond = cond.to(device=device, dtype=dt)
    cd = cond.double()
    system = _matern32(torch.cdist(cd, cd)) + NUGGET * torch.eye(n, dtype=torch.float64, device=cd.device)
    weights = torch.linalg.solve(system, z.double().to(device) - mean)
    return grid.to(device=device, dtype=dt), cond, weights.to(dt), mean, VAR, LEN_SCALE


def reference(grid, cond, weights, mean, var, len_scale) -> torch.Tensor:
    q, c, w = grid.double(), cond.double(), weights.double()
    out = torch.empty(q.shape[0], dtype=torch.float64, device=q.device)
    for start in range(0, q.shape[0], 8192):
        d = q[start:start + 8192, None, :] - c[None, :, :]
        s = math.sqrt(3.0) * d.pow(2).sum(-1).sqrt() / len_scale
        out[start:start + 8192] = mean + var * ((1.0 + s) * torch.exp(-s) * w[None, :]).sum(1)
    return out.to(grid.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    m, n = s["H"] * s["W"], s["N"]
    return {"bytes": 12 * m + 12 * n, "flops": 12 * m * n}
