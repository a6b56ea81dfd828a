"""Global time step of a shallow-water tsunami solver (Tsunami-HySEA's delta-T reduction).

After every step, Tsunami-HySEA reduces the CFL-limited time step over all volumes of the mesh.
On a Cartesian grid of cell sizes dx, dy, a wet volume (h > dry_tol) with velocity u = hu / h,
v = hv / h and gravity-wave celerity c = sqrt(g h) allows
    dt_i = CFL / max((|u| + c) / dx, (|v| + c) / dy),
dry volumes impose no limit. The solver advances with dt = min_i dt_i, i.e.
    dt = CFL / max_i rate_i,   rate_i = max((|u| + c) / dx, (|v| + c) / dy) on wet cells, 0 on dry.
Inputs: h, hu, hv [ny, nx] fp32 (water depth m, discharges m^2/s), dx, dy (m), CFL.
Returns dt as an fp32 tensor of shape [1].
"""
import math

import torch

G = 9.81
DRY_TOL = 1e-5

META = {
    "name": "swe_cfl_delta_t",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"ny": 45, "nx": 61},
        "ragged": {"ny": 37, "nx": 103},
        "large": {"ny": 2880, "nx": 4320},
    },
    "baseline_notes": "40 programs (the A2's vector cores) stride over blocks of 2048 cells, each keeping a "
                      "running per-lane maximum of the wave-speed rate and storing one partial; a one-program "
                      "kernel reduces the 40 partials and writes dt = CFL / max. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A basin with a continental shelf, dry coastal land and a propagating tsunami wave."""
    s = META["sizes"][size]
    ny, nx = s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.linspace(0.0, 1.0, ny)[:, None]
    x = torch.linspace(0.0, 1.0, nx)[None, :]
    # bed elevation: abyssal plain (-5000 m) rising over a shelf to land (+50 m) in the east
    zb = -5000.0 + 5050.0 / (1.0 + torch.exp(-(x - 0.8) * 25.0)) + 150.0 * torch.sin(9.0 * y) * x
    zb = zb + 40.0 * torch.randn(ny, nx, generator=g)
    eta = 3.0 * torch.exp(-((x - 0.35) ** 2 + (y - 0.5) ** 2) / 0.01)
    h = (eta - zb).clamp(min=0.0)
    h = torch.where(h < 0.05, torch.zeros_like(h), h)
    c = torch.sqrt(G * h.clamp(min=1.0))
    u = eta * torch.sqrt(G / h.clamp(min=1.0)) + 0.2 * torch.randn(ny, nx, generator=g)
    v = 0.5 * eta * c / 100.0 + 0.2 * torch.randn(ny, nx, generator=g)
    hu = torch.where(h > 0, h * u, torch.zeros_like(h))
    hv = torch.where(h > 0, h * v, torch.zeros_like(h))
    dx, dy = 3700.0, 3700.0 * math.cos(math.radians(20.0))
    cfl = 0.5
    return h.to(dt).to(device), hu.to(dt).to(device), hv.to(dt).to(device), dx, dy, cfl


def reference(h: torch.Tensor, hu: torch.Tensor, hv: torch.Tensor, dx: float, dy: float,
              cfl: float) -> torch.Tensor:
    hd = h.double()
    wet = hd > DRY_TOL
    hs = torch.where(wet, hd, torch.ones_like(hd))
    c = torch.sqrt(G * hs)
    u = (hu.double() / hs).abs()
    v = (hv.double() / hs).abs()
    rate = torch.maximum((u + c) / dx, (v + c) / dy)
    rate = torch.where(wet, rate, torch.zeros_like(rate))
    return (cfl / rate.max()).reshape(1).to(h.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["ny"] * s["nx"]
    return {"bytes": 12 * n + 4, "flops": 12 * n}
