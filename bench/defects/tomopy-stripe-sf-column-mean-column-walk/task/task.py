"""Stripe profile of TomoPy's smoothing-filter ring removal (tomopy.prep.stripe.remove_stripe_sf, Raven 1998).

Projections are in TomoPy's layout proj [A, Z, D] (projection angle, detector row, detector column), already
flat-field corrected and -log'ed; every detector row z is one sinogram [A, D]. A miscalibrated detector column
adds the same offset at every angle and reconstructs as a ring. The filter averages each sinogram over the
angles, smooths that average along the detector with a box filter of `size` taps (edge pixels replicated) and
subtracts the difference from every projection row. This task computes the profile that is subtracted:

    avrg[z, d]    = (1 / A) * sum_a proj[a, z, d]
    smooth[z, d]  = (1 / size) * sum_{|k| <= size//2} avrg[z, clamp(d + k, 0, D - 1)]
    profile[z, d] = avrg[z, d] - smooth[z, d]

Returns profile [Z, D] fp32 (the in-place subtraction proj -= profile is a separate elementwise pass).
"""
import math

import torch

META = {
    "name": "stripe_sf_profile",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"A": 24, "Z": 3, "D": 40, "size": 5},
        "ragged": {"A": 37, "Z": 5, "D": 61, "size": 5},
        "large": {"A": 1800, "Z": 32, "D": 2560, "size": 5},
    },
    "baseline_notes": "Two launches. Column mean: grid (cdiv(D, 128), Z), each program owns 128 adjacent detector "
                      "columns of one sinogram and walks the angles in [32, 128] tiles (rows of 512 contiguous "
                      "bytes), accumulating in registers, then reduces over the angle axis and stores the mean. "
                      "Profile: grid (cdiv(D, 1024), Z), the size-tap box filter with clamped neighbours over the "
                      "[Z, D] means. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """proj [A, Z, D]: sinograms of a few off-centre discs plus per-column stripe offsets and noise; filter size."""
    s = META["sizes"][size]
    A, Z, D = s["A"], s["Z"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    theta = torch.arange(A, dtype=torch.float32) * (math.pi / A)
    t = torch.arange(D, dtype=torch.float32) - (D - 1) / 2.0
    proj = torch.zeros(A, Z, D)
    for _ in range(4):
        cx, cy = (torch.rand(2, Z, generator=g) - 0.5) * 0.5 * D
        rad = (0.05 + 0.15 * torch.rand(Z, generator=g)) * D
        mu = cx[None, :] * torch.cos(theta)[:, None] + cy[None, :] * torch.sin(theta)[:, None]   # [A, Z]
        chord = (rad[None, :, None] ** 2 - (t[None, None, :] - mu[:, :, None]) ** 2).clamp(min=0.0)
        proj += 2.0 * torch.sqrt(chord) / D
    stripes = 0.02 * torch.randn(Z, D, generator=g) * (torch.rand(Z, D, generator=g) < 0.05)
    proj += stripes[None] + 0.01 * torch.randn(A, Z, D, generator=g)
    return proj.to(device=device, dtype=dt).contiguous(), s["size"]


def reference(proj: torch.Tensor, size: int) -> torch.Tensor:
    D = proj.shape[2]
    avrg = proj.double().mean(dim=0)                                   # [Z, D]
    half = size // 2
    idx = torch.arange(D, device=proj.device)
    smooth = torch.zeros_like(avrg)
    for k in range(-half, half + 1):
        smooth += avrg[:, (idx + k).clamp(0, D - 1)]
    return (avrg - smooth / size).to(proj.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * (s["A"] * s["Z"] * s["D"] + s["Z"] * s["D"]), "flops": s["A"] * s["Z"] * s["D"]}
