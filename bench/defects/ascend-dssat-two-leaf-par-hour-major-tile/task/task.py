"""Daily canopy PAR absorption of a sunlit/shaded (two-big-leaf) canopy from hourly forcing, per grid cell.

The hourly canopy radiation step of DSSAT's ETPHOT / the de Pury & Farquhar (1997) two-leaf model: for grid cell
c (latitude lat[c], leaf area index lai[c]) and hour h of the day (solar declination decl), with the hour angle at
the middle of the hour w_h = pi (h + 0.5 - 12) / 12,
    sinb  = sin(lat) sin(decl) + cos(lat) cos(decl) cos(w_h)          (sine of the solar elevation)
    kb    = 0.5 / sinb   (spherical leaf angles),  kb' = kb sqrt(1 - sigma),  kd' = 0.719,  sigma = 0.15
    rho_cb = 1 - exp(-2 rho_h kb / (1 + kb)),  rho_h = (1 - sqrt(1 - sigma)) / (1 + sqrt(1 - sigma)),  rho_cd = 0.036
    Ib = par (1 - fd),  Id = par fd                                    (beam and diffuse PAR, W/m2)
    I_c   = (1 - rho_cb) Ib (1 - exp(-kb' L)) + (1 - rho_cd) Id (1 - exp(-kd' L))             (whole canopy)
    I_sun = Ib (1 - sigma)(1 - exp(-kb L)) + (1 - rho_cd) Id kd'/(kd' + kb) (1 - exp(-(kd' + kb) L))
            + Ib [ (1 - rho_cb) kb'/(kb' + kb) (1 - exp(-(kb' + kb) L)) - (1 - sigma)(1 - exp(-2 kb L)) / 2 ]
Hours with sinb <= 0.05 contribute nothing. The daily sums over the 24 hours, in MJ/m2/day (x 3600e-6), are
returned: (canopy [N], sunlit [N]). The hourly forcing par [N, 24] and fd [N, 24] is stored per cell (each cell's
24 hourly values contiguous, as per-site weather records are).
"""
import math

import torch

META = {
    "name": "two_leaf_canopy_par",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 100},
        "ragged": {"N": 173},
        "large": {"N": 1048576},
    },
    "baseline_notes": "min(40, blocks) programs (the A2's vector cores) loop over [64 cells x 32 hours] tiles of the "
                      "cell-major hourly forcing (hours 24..31 masked), the hour angle's cosine computed once as a "
                      "32-vector, per-cell lat/LAI terms broadcast along the hours, the two daily sums reduced along "
                      "the contiguous hour axis; no autotune.",
    "deterministic": True,
}
HOURS = 24
SIGMA, KDP, RHO_CD = 0.15, 0.719, 0.036


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """lat [N] (radians), lai [N], par [N, 24] (W/m2), fd [N, 24] (diffuse fraction), decl (float, radians)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    decl = 0.3
    lat = (torch.rand(n, generator=g) * 110.0 - 50.0) * math.pi / 180.0
    lai = torch.rand(n, generator=g) * 6.0
    w = math.pi * (torch.arange(HOURS, dtype=torch.float64) + 0.5 - 12.0) / 12.0
    sinb = (torch.sin(lat.double())[:, None] * math.sin(decl)
            + torch.cos(lat.double())[:, None] * math.cos(decl) * torch.cos(w)[None, :])
    clear = 0.3 + 0.5 * torch.rand(n, HOURS, generator=g, dtype=torch.float64)
    par = (0.5 * 1360.0 * clear * (sinb - 0.05).clamp(min=0.0)).float()  # no PAR below ~3 deg of elevation
    fd = (1.0 - 0.9 * clear + 0.05 * torch.rand(n, HOURS, generator=g, dtype=torch.float64)).clamp(0.1, 1.0).float()
    return lat.to(dt).to(device), lai.to(dt).to(device), par.to(dt).to(device), fd.to(dt).to(device), decl


def reference(lat, lai, par, fd, decl):
    la, L, I, f = lat.double()[:, None], lai.double()[:, None], par.double(), fd.double()
    w = math.pi * (torch.arange(HOURS, dtype=torch.float64, device=par.device) + 0.5 - 12.0) / 12.0
    sinb = torch.sin(la) * math.sin(decl) + torch.cos(la) * math.cos(decl) * torch.cos(w)[None, :]
    day = sinb > 0.05
    sb = torch.clamp(sinb, min=0.05)
    kb = 0.5 / sb
    s1 = math.sqrt(1.0 - SIGMA)
    kbp = kb * s1
    rho_h = (1.0 - s1) / (1.0 + s1)
    rho_cb = 1.0 - torch.exp(-2.0 * rho_h * kb / (1.0 + kb))
    ib, idf = I * (1.0 - f), I * f
    canopy = (1.0 - rho_cb) * ib * (1.0 - torch.exp(-kbp * L)) + (1.0 - RHO_CD) * idf * (1.0 - torch.exp(-KDP * L))
    sun = (ib * (1.0 - SIGMA) * (1.0 - torch.exp(-kb * L))
           + (1.0 - RHO_CD) * idf * KDP / (KDP + kb) * (1.0 - torch.exp(-(KDP + kb) * L))
           + ib * ((1.0 - rho_cb) * kbp / (kbp + kb) * (1.0 - torch.exp(-(kbp + kb) * L))
                   - (1.0 - SIGMA) * (1.0 - torch.exp(-2.0 * kb * L)) / 2.0))
    zero = torch.zeros_like(canopy)
    canopy = torch.where(day, canopy, zero).sum(1) * 3600e-6
    sun = torch.where(day, sun, zero).sum(1) * 3600e-6
    return canopy.to(par.dtype), sun.to(par.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 8 * n * HOURS + 16 * n, "flops": 60 * n * HOURS}
