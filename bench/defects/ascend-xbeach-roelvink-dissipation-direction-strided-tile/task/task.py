"""XBeach short-wave bulk quantities and Roelvink (1993) breaker dissipation over the directional bins.

XBeach's instationary short-wave driver (break = roelvink1) carries the wave energy density per
directional bin, ee(x, y, theta). After the action-balance advection of every step it reduces the
bins, per grid cell, to
    E         = sum_theta ee * dtheta                        total wave energy [J/m2]
    H         = sqrt(8 E / (rho g))                          rms wave height [m]
    thetamean = sum_theta ee * theta / max(sum_theta ee, 1e-5)   energy-weighted mean direction [rad]
    Qb        = 1 - exp(-(H / (gamma hh))^n)                 fraction of breaking waves
    D         = 2 alpha / Trep * Qb * E                      breaker dissipation [W/m2]
and hands the dissipation back to the bins in proportion to their energy,
    dd[theta] = ee[theta] * D / max(E, 1e-5),
the sink term of the next action-balance step. ee keeps XBeach's memory order: the Fortran array
ee(1:nx+1, 1:ny+1, 1:ntheta) is the C-order tensor [ntheta, ny, nx], x fastest. Returns
(E, H, thetamean, D) as [ny, nx] and dd as [ntheta, ny, nx], all fp32.
"""
import math

import torch

META = {
    "name": "xbeach_roelvink_dissipation",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"ntheta": 16, "ny": 6, "nx": 40},
        "ragged": {"ntheta": 12, "ny": 5, "nx": 37},
        "large": {"ntheta": 16, "ny": 512, "nx": 1024},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 256 cells; each block is one "
                      "[ntheta, 256] tile of ee (cells on the contiguous last axis, one 1 KiB row per bin), "
                      "reduced over the bin axis for E and thetamean; breaking fraction and dissipation per cell, "
                      "then dd written back as one [ntheta, 256] tile. No autotune.",
    "deterministic": True,
}
RHO, G = 1025.0, 9.81
GAMMA, ALPHA, N_BREAK, TREP = 0.55, 1.0, 10.0, 10.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ee [ntheta, ny, nx], bin centres thet [ntheta] (rad), depth hh [ny, nx], then the scalars
    dtheta, rho, g, gamma, alpha, n, Trep."""
    s = META["sizes"][size]
    nt, ny, nx = s["ntheta"], s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    dtheta = math.radians(160.0 / nt)                       # bins over -80 .. 80 degrees
    thet = (torch.arange(nt, dtype=torch.float64) + 0.5) * dtheta - math.radians(80.0)
    x = torch.linspace(0.0, 1.0, nx, dtype=torch.float64)   # offshore (0) to the shoreline (1)
    y = torch.linspace(0.0, 1.0, ny, dtype=torch.float64)
    hh = 0.2 + 11.0 * (1.0 - x)[None, :] ** 1.5 + 0.4 * torch.sin(6.0 * y)[:, None] * (1.0 - x)[None, :]
    hh = hh * (1.0 + 0.03 * torch.rand(ny, nx, generator=g, dtype=torch.float64))
    hrms = torch.minimum(torch.full_like(hh, 1.6), 0.6 * hh) * (0.9 + 0.2 * torch.rand(ny, nx, generator=g,
                                                                                       dtype=torch.float64))
    e_tot = RHO * G * hrms ** 2 / 8.0
    theta_m = math.radians(15.0) * (1.0 - x)[None, :] + 0.05 * torch.randn(ny, nx, generator=g, dtype=torch.float64)
    spread = torch.cos(thet[:, None, None] - theta_m[None]).clamp(min=0.0) ** 10
    spread = spread + 1e-3 * torch.rand(nt, ny, nx, generator=g, dtype=torch.float64)
    ee = e_tot[None] * spread / (spread.sum(0, keepdim=True) * dtheta)
    to = dict(device=device, dtype=dt)
    return (ee.to(**to), thet.to(**to), hh.to(**to), dtheta, RHO, G, GAMMA, ALPHA, N_BREAK, TREP)


def reference(ee, thet, hh, dtheta, rho, g, gamma, alpha, n_break, trep) -> tuple:
    e = ee.double()
    esum = e.sum(0)
    E = esum * dtheta
    H = torch.sqrt(8.0 * E / (rho * g))
    thetamean = (e * thet.double()[:, None, None]).sum(0) / esum.clamp(min=1e-5)
    qb = 1.0 - torch.exp(-(H / (gamma * hh.double())) ** n_break)
    D = 2.0 * alpha / trep * qb * E
    dd = e * (D / E.clamp(min=1e-5))[None]
    dt = ee.dtype
    return E.to(dt), H.to(dt), thetamean.to(dt), D.to(dt), dd.to(dt)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nt, n = s["ntheta"], s["ny"] * s["nx"]
    return {"bytes": 8 * nt * n + 4 * nt + 20 * n, "flops": 5 * nt * n + 30 * n}
