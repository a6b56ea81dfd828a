"""Postage stamps of sheared bulge + disk galaxies (GalSim, as imSim / CatSim galaxies are drawn).

Every galaxy is GalSim's Exponential disk plus DeVaucouleurs bulge (Sersic n = 4), each with its own
half-light radius, sharing one reduced shear (g1, g2) and a sub-pixel offset (dx, dy), drawn with
method='no_pixel' onto an S x S stamp of pixel scale `scale` centred at the stamp's true centre:
    x = (ix - (S-1)/2) * scale - dx,   y = (iy - (S-1)/2) * scale - dy
    (u, v) = A^-1 (x, y),  A^-1 = [[1-g1, -g2], [-g2, 1+g1]] / sqrt(1 - g1^2 - g2^2)   (galsim.Shear)
    disk:  F_d / (2 pi r0^2) exp(-r / r0),                r0 = hlr_d / 1.6783469900166605
    bulge: F_b b^8 / (8 pi Gamma(8) re^2) exp(-b (r/re)^(1/4)),  b = 7.66924944, re = hlr_b
with r = sqrt(u^2 + v^2), F_b = flux * bulge_frac, F_d = flux - F_b; pixel value = surface
brightness * scale^2. params[n] = (flux, bulge_frac, hlr_disk, hlr_bulge, g1, g2, dx, dy), arcsec.
Returns images fp32 [N, S, S].
"""
import math

import torch

META = {
    "name": "bulge_disk_stamps",
    "level": 2,
    "category": "image-simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 4, "S": 16},
        "ragged": {"N": 5, "S": 21},
        "large": {"N": 16384, "S": 64},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over (galaxy, block of 32 stamp rows) work "
                      "items: the galaxy's 8 parameters are read as scalars once per item, the pixel "
                      "coordinates come from aranges of a [32, S] tile, one contiguous store per item; no "
                      "autotune.",
    "deterministic": True,
}
PIXEL_SCALE = 0.2          # arcsec (LSST)
EXP_HLR_OVER_R0 = 1.6783469900166605
DEV_B = 7.66924944
GAMMA_8 = 5040.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """params [N, 8] = (flux, bulge_frac, hlr_disk, hlr_bulge, g1, g2, dx, dy); stamp size S; pixel scale."""
    s = META["sizes"][size]
    n = s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = lambda: torch.rand(n, generator=g, dtype=torch.float64)  # noqa: E731
    flux = 10 ** (2.5 + 1.5 * u())
    bulge_frac = u() * 0.6
    hlr_disk = 0.4 + 1.0 * u()
    hlr_bulge = 0.2 + 0.6 * u()
    gmag = 0.05 + 0.4 * u()
    beta = math.pi * u()
    g1, g2 = gmag * torch.cos(2 * beta), gmag * torch.sin(2 * beta)
    dx, dy = (u() - 0.5) * PIXEL_SCALE, (u() - 0.5) * PIXEL_SCALE
    params = torch.stack([flux, bulge_frac, hlr_disk, hlr_bulge, g1, g2, dx, dy], dim=1)
    return params.to(dt).contiguous().to(device), s["S"], PIXEL_SCALE


def reference(params: torch.Tensor, S: int, scale: float) -> torch.Tensor:
    p = params.double()
    flux, bfrac, hlr_d, hlr_b, g1, g2, dx, dy = (p[:, i, None, None] for i in range(8))
    c = (torch.arange(S, dtype=torch.float64, device=p.device) - (S - 1) / 2) * scale
    x = c[None, None, :] - dx
    y = c[None, :, None] - dy
    inv = 1.0 / torch.sqrt(1.0 - g1 * g1 - g2 * g2)
    u = ((1.0 - g1) * x - g2 * y) * inv
    v = (-g2 * x + (1.0 + g1) * y) * inv
    r = torch.sqrt(u * u + v * v)
    r0 = hlr_d / EXP_HLR_OVER_R0
    fb = flux * bfrac
    disk = (flux - fb) / (2 * math.pi * r0 * r0) * torch.exp(-r / r0)
    bulge = fb * DEV_B ** 8 / (8 * math.pi * GAMMA_8 * hlr_b * hlr_b) * torch.exp(-DEV_B * (r / hlr_b) ** 0.25)
    return ((disk + bulge) * scale * scale).to(params.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pix = s["N"] * s["S"] * s["S"]
    return {"bytes": 4 * pix + 32 * s["N"], "flops": 40 * pix}
