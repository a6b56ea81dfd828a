"""darktable sharpen (unsharp mask on Lab L): the vertical Gaussian pass, sharpen_vblur.

darktable's sharpen iop blurs the L channel with a separable Gaussian before mixing
out = L + amount * copysign(max(|L - blur| - threshold, 0), L - blur). With the default radius 2.0 the
module works with d->radius = 2.5 * 2.0 = 5, so rad = min(12, ceil(5)) = 5 (an 11-tap kernel) and
sigma^2 = (d->radius / 2.5)^2 = 4; the taps are exp(-l^2 / (2 sigma^2)) normalised to sum 1. This task is the
vertical pass over the already horizontally blurred L plane (the OpenCL path's second kernel):
    out[y, x] = sum_{l=-rad..rad} mat[l + rad] * L[clamp(y + l, 0, H - 1), x]
with CLK_ADDRESS_CLAMP_TO_EDGE at the top and bottom rows. Inputs: L [H, W] fp32 (0..100), mat [2 rad + 1]
fp32. Returns the vertically blurred plane [H, W] fp32.
"""
import math

import torch

META = {
    "name": "sharpen_vblur",
    "level": 1,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 40, "W": 48},
        "ragged": {"H": 37, "W": 53},
        "large": {"H": 4000, "W": 6000},
    },
    "baseline_notes": "Grid (column blocks of 256, rows): each program owns 256 contiguous pixels of one row and "
                      "accumulates the 11 taps from rows y-5..y+5 (row index clamped to the image), one coalesced "
                      "load per tap; 4 warps, no autotune.",
    "deterministic": True,
}
RADIUS = 2.0     # the module's default radius slider


def gaussian_taps(radius: float = RADIUS) -> torch.Tensor:
    """init_gaussian_kernel() as sharpen.c calls it at full resolution (scale = iscale = 1)."""
    d_radius = 2.5 * radius
    rad = min(12, math.ceil(d_radius))
    sigma2 = (1.0 / (2.5 * 2.5)) * d_radius * d_radius
    taps = torch.tensor([math.exp(-l * l / (2.0 * sigma2)) for l in range(-rad, rad + 1)], dtype=torch.float32)
    return taps / taps.sum()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A horizontally blurred L plane of a photograph-like scene (gradients, edges, texture, noise) and the taps."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    yy = torch.linspace(0.0, 1.0, h)[:, None]
    xx = torch.linspace(0.0, 1.0, w)[None, :]
    sky = 70.0 + 20.0 * (1.0 - yy)
    ground = 35.0 + 15.0 * torch.sin(40.0 * xx) * torch.cos(25.0 * yy)
    horizon = 0.45 + 0.05 * torch.sin(7.0 * xx)
    lum = torch.where(yy < horizon, sky, ground)
    lum = lum + 8.0 * ((torch.floor(xx * 23.0) + torch.floor(yy * 17.0)) % 2) * (yy >= horizon)
    lum = lum + 1.5 * torch.randn(h, w, generator=g)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return lum.clamp(0.0, 100.0).to(dt).to(device), gaussian_taps().to(dt).to(device)


def reference(lum: torch.Tensor, mat: torch.Tensor) -> torch.Tensor:
    h = lum.shape[0]
    rad = (mat.shape[0] - 1) // 2
    src = lum.double()
    out = torch.zeros_like(src)
    rows = torch.arange(h, device=lum.device)
    for k in range(2 * rad + 1):
        out += mat[k].double() * src[(rows + k - rad).clamp(0, h - 1)]
    return out.to(lum.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 8 * n, "flops": 2 * 11 * n}
