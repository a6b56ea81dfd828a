"""Zonal sweep of MOM6 tracer advection (tracer_advect.F90, advect_x) with PLM reconstruction.

Tracer q [NK, NJ, NI] on a zonally periodic grid, u [NK, NJ, NI] the velocity at the east face of
each cell (I+1/2), rdx [NJ] = dt / dx(j) with dx(j) = R cos(lat_j) dlon (the grid metric).
Per cell: the MOM6 monotonic PLM slope
    slope = sign(min(0.5|q[i+1]-q[i-1]|, 2 (max3 - q[i]), 2 (q[i] - min3)), q[i+1]-q[i-1]),
per east face with Courant number c = u rdx:
    F = c (q[i] + 0.5 slope[i] (1 - c))          if c >= 0
    F = c (q[i+1] - 0.5 slope[i+1] (1 + c))      otherwise,
and the flux-form update q_new[i] = q[i] - (F[i+1/2] - F[i-1/2]).
"""
import math

import torch

META = {
    "name": "mom6_tracer_advect_x",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"NK": 3, "NJ": 5, "NI": 40},
        "ragged": {"NK": 2, "NJ": 7, "NI": 77},
        "large": {"NK": 75, "NJ": 1080, "NI": 1440},
    },
    "baseline_notes": "One fused kernel, grid (NK*NJ rows, cdiv(NI, 512)): loads q at i-2..i+2 and u at i-1, i "
                      "with periodic wrap, recomputes the three PLM slopes and both face fluxes in registers, "
                      "stores q_new; fp32, 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q [NK, NJ, NI] (tracer, e.g. temperature in degC), u [NK, NJ, NI] (m/s), rdx [NJ] (s/m)."""
    s = META["sizes"][size]
    nk, nj, ni = s["NK"], s["NJ"], s["NI"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lon = torch.arange(ni) * (2 * math.pi / ni)
    lat = torch.linspace(-78.0, 89.0, nj) * (math.pi / 180.0)
    depth = torch.linspace(0.0, 1.0, nk)[:, None, None]
    q = (20.0 * torch.cos(lat)[None, :, None] * (1.0 - 0.8 * depth) + 2.0 * torch.sin(3 * lon)[None, None, :]
         + 0.5 * torch.randn(nk, nj, ni, generator=g))
    u = (0.3 * torch.randn(nk, nj, ni, generator=g)).clamp(-2.0, 2.0)
    dx = 6.371e6 * torch.cos(lat).clamp(min=0.05) * (2 * math.pi / ni)
    rdx = 0.4 * dx.min() / 2.0 / dx  # dt chosen for |c| <= 0.4 at the largest speed
    return q.to(dt).to(device), u.to(dt).to(device), rdx.to(dt).to(device)


def _slope(q):
    qm, qp = torch.roll(q, 1, -1), torch.roll(q, -1, -1)
    d_max = torch.maximum(torch.maximum(qm, qp), q) - q
    d_min = q - torch.minimum(torch.minimum(qm, qp), q)
    mag = torch.minimum(torch.minimum(0.5 * (qp - qm).abs(), 2.0 * d_max), 2.0 * d_min)
    return torch.where(qp - qm >= 0, mag, -mag)


def reference(q: torch.Tensor, u: torch.Tensor, rdx: torch.Tensor) -> torch.Tensor:
    q64, c = q.double(), u.double() * rdx.double()[None, :, None]
    s = _slope(q64)
    qe, se = torch.roll(q64, -1, -1), torch.roll(s, -1, -1)
    flux = torch.where(c >= 0, c * (q64 + 0.5 * s * (1.0 - c)), c * (qe - 0.5 * se * (1.0 + c)))
    return (q64 - (flux - torch.roll(flux, 1, -1))).to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NK"] * s["NJ"] * s["NI"]
    return {"bytes": 12 * n, "flops": 30 * n}
