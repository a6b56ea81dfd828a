"""Adaptive time step of a 2-D flood model from the maximum wave speed (CADDIES caflood / LISFLOOD-FP style).

After every update the model picks the next time step from a CFL condition over the wet cells:
    wet cell:  h > h_tol
    speed      c = max(|qx|, |qy|) / h + sqrt(g h)      (fastest characteristic |u| + sqrt(g h))
    c_max      = max over wet cells (0 when nothing is wet)
    dt         = min(dt_max, cfl * dx / c_max), or dt_max when c_max == 0
qx, qy are the cell-centred unit-width discharges (m^2/s). Returns (dt [1] fp32, c_max [1] fp32).
"""
import math

import torch

META = {
    "name": "flood_adaptive_dt",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"ny": 24, "nx": 40},
        "ragged": {"ny": 37, "nx": 53},
        "large": {"ny": 4000, "nx": 6000},
    },
    "baseline_notes": "1-D grid over the flattened cells, 2048 cells per program: each program computes the "
                      "wave speed of its wet cells, reduces them to one block maximum and folds it into the "
                      "global maximum with a single atomic_max; a one-program kernel turns c_max into dt. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
G = 9.81


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Depth h and unit discharges qx, qy [ny, nx] of a partly flooded valley on a 2 m grid, then
    dx (m), cfl, dt_max (s) and the wet-depth tolerance h_tol (m)."""
    s = META["sizes"][size]
    ny, nx = s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    fy = torch.linspace(0.0, 1.0, ny)[:, None]
    fx = torch.linspace(0.0, 1.0, nx)[None, :]
    centre = 0.5 + 0.15 * torch.sin(2.0 * math.pi * fy / 0.7)
    dist = (fx - centre).abs()
    bumps = 0.3 * torch.sin(fx * 37.0) * torch.cos(fy * 23.0)
    z = 6.0 * dist + bumps + 0.05 * torch.randn(ny, nx, generator=g)
    h = (1.2 - z).clamp(min=0.0)
    # Manning velocity magnitude h^(2/3) sqrt(S) / n with S ~ 1e-3 and n ~ 0.035, then a random direction
    speed = h.pow(2.0 / 3.0) * (0.9 + 0.2 * torch.rand(ny, nx, generator=g))
    angle = 2.0 * math.pi * torch.rand(ny, nx, generator=g)
    qx = h * speed * torch.cos(angle)
    qy = h * speed * torch.sin(angle)
    cast = lambda t: t.to(device=device, dtype=dt_).contiguous()
    return cast(h), cast(qx), cast(qy), 2.0, 0.7, 10.0, 1e-3


def reference(h: torch.Tensor, qx: torch.Tensor, qy: torch.Tensor, dx: float, cfl: float, dt_max: float,
              h_tol: float) -> tuple:
    wet = h > h_tol
    d = torch.where(wet, h, torch.ones_like(h))
    c = torch.maximum(qx.abs(), qy.abs()) / d + torch.sqrt(G * d)
    c_max = torch.where(wet, c, torch.zeros_like(c)).max().reshape(1).double()
    dt = torch.where(c_max > 0, torch.clamp(cfl * dx / c_max.clamp(min=1e-30), max=dt_max),
                     torch.full_like(c_max, dt_max))
    return dt.to(h.dtype), c_max.to(h.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["ny"] * s["nx"]
    return {"bytes": 12 * cells, "flops": 8 * cells}
