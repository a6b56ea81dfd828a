"""LISFLOOD-FP local inertial (acceleration) solver: floodplain discharge update across the y faces.

The grid holds water depth h, bed elevation z and a Manning's n map on ny x nx square cells of side dx.
Face r (0..ny) of column c lies between cell (r-1, c) and cell (r, c); faces 0 and ny are closed
boundaries (q = 0). For an interior face, following Bates et al. (2010) as coded in LISFLOOD-FP:
    hflow = max(h0 + z0, h1 + z1) - max(z0, z1)          (flow depth over the higher bed), clipped at 0
    if hflow > 0.001 m:
        S  = ((h1 + z1) - (h0 + z0)) / dx                 (water-surface slope)
        nf = (n0 + n1) / 2
        q  = (q_old - g dt hflow S) / (1 + g dt nf^2 |q_old| / hflow^(7/3))
    else q = 0
with q the unit-width discharge (m^2/s). Returns qy_new [ny + 1, nx] fp32.
"""
import math

import torch

META = {
    "name": "lisflood_inertial_qy",
    "level": 1,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"ny": 24, "nx": 40},
        "ragged": {"ny": 37, "nx": 53},
        "large": {"ny": 4000, "nx": 6000},
    },
    "baseline_notes": "2-D grid (column blocks of 512 cells, one face row per program): each program loads "
                      "the two cell rows on either side of its face row (h, z, n) and the old discharge as "
                      "contiguous 512-wide vectors, applies the inertial update and stores the new row. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
G = 9.81
DEPTH_THRESH = 0.001


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A flooded river valley on a 2 m DEM: h, z, n [ny, nx], previous qy [ny + 1, nx], dt (s), dx (m)."""
    s = META["sizes"][size]
    ny, nx = s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    dx = 2.0
    fy = torch.linspace(0.0, 1.0, ny)[:, None]
    fx = torch.linspace(0.0, 1.0, nx)[None, :]
    centre = 0.5 + 0.15 * torch.sin(2.0 * math.pi * fy / 0.7)
    dist = (fx - centre).abs()
    valley = 30.0 - 8.0 * fy                      # the valley falls 8 m along y
    bumps = 0.3 * torch.sin(fx * 37.0) * torch.cos(fy * 23.0)
    z = valley + 6.0 * dist + bumps + 0.05 * torch.randn(ny, nx, generator=g)
    wse = valley + 1.2 + 0.02 * torch.randn(ny, 1, generator=g)
    h = (wse - z).clamp(min=0.0)
    n = torch.full((ny, nx), 0.035)
    n = torch.where(torch.rand(ny, nx, generator=g) < 0.2, torch.full_like(n, 0.06), n)
    roads = (torch.arange(nx)[None, :] % 97 < 3) | (torch.arange(ny)[:, None] % 131 < 3)
    n = torch.where(roads, torch.full_like(n, 0.015), n)
    hface = torch.zeros(ny + 1, nx)
    hface[1:ny] = 0.5 * (h[:-1] + h[1:])
    qy = hface * (0.6 + 0.3 * torch.randn(ny + 1, nx, generator=g))
    qy[0] = 0.0
    qy[ny] = 0.0
    cast = lambda t: t.to(device=device, dtype=dt_).contiguous()
    return cast(h), cast(z), cast(n), cast(qy), 0.2, dx


def reference(h: torch.Tensor, z: torch.Tensor, n: torch.Tensor, qy: torch.Tensor, dt: float, dx: float) -> torch.Tensor:
    ny, nx = h.shape
    h0, h1, z0, z1 = h[:-1], h[1:], z[:-1], z[1:]
    y0, y1 = h0 + z0, h1 + z1
    hflow = (torch.maximum(y0, y1) - torch.maximum(z0, z1)).clamp(min=0.0)
    wet = hflow > DEPTH_THRESH
    q0 = qy[1:ny].double()
    hf = torch.where(wet, hflow, torch.ones_like(hflow)).double()
    slope = (y1 - y0).double() / dx
    nf = 0.5 * (n[:-1] + n[1:]).double()
    q = (q0 - G * dt * hf * slope) / (1.0 + G * dt * nf * nf * q0.abs() / hf.pow(7.0 / 3.0))
    out = torch.zeros(ny + 1, nx, dtype=torch.float64, device=h.device)
    out[1:ny] = torch.where(wet, q, torch.zeros_like(q))
    return out.to(h.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["ny"] * s["nx"]
    return {"bytes": 4 * (3 * cells + 2 * (s["ny"] + 1) * s["nx"]), "flops": 30 * cells}
