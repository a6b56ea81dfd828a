"""One iteration of Chambolle's projection for isotropic total-variation denoising
(scikit-image restoration.denoise_tv_chambolle, 2-D planes: `_denoise_tv_chambolle_nd`).

The dual field p = (p0, p1) lives on every pixel of each plane (p0 along rows, p1 along columns).
With the backward-difference divergence (zero outside the plane)
    d[i, j]   = p0[i-1, j] - p0[i, j] + p1[i, j-1] - p1[i, j]
    out       = image + d
the forward-difference gradient of out (zero on the last row / column)
    g0[i, j]  = out[i+1, j] - out[i, j]        g1[i, j] = out[i, j+1] - out[i, j]
and tau = 1 / (2 * ndim) = 0.25, the update is
    p_new = (p - tau * g) / (1 + tau / weight * sqrt(g0^2 + g1^2)).
Returns (out [B, H, W], p_new [B, 2, H, W]); skimage runs this up to max_num_iter = 200 times and
returns out. The energy / stopping test is left to the caller.
"""
import math

import torch

META = {
    "name": "tv_chambolle_step",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "H": 24, "W": 40},
        "ragged": {"B": 3, "H": 19, "W": 37},
        "large": {"B": 8, "H": 1024, "W": 1024},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over [4, 256] tiles of (plane, row block, "
                      "column block), decoded from the scalar tile index; every neighbour of the stencil "
                      "is a shifted 2-D tile load (rows x contiguous columns) with bounds masks; out and "
                      "both p components are written per tile; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Noisy planes image [B, H, W] in [0, 1], the dual field p [B, 2, H, W] of a run in progress
    (|p| < weight), and the TV weight (skimage's default 0.1)."""
    s = META["sizes"][size]
    b, h, w = s["B"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    yy = torch.linspace(0, 1, h)[:, None]
    xx = torch.linspace(0, 1, w)[None, :]
    clean = 0.5 + 0.3 * torch.sign(torch.sin(2 * math.pi * 3 * xx) * torch.cos(2 * math.pi * 2 * yy))
    image = (clean[None] + 0.1 * torch.randn(b, h, w, generator=g)).clamp(0, 1)
    weight = 0.1
    ang = 2 * math.pi * torch.rand(b, h, w, generator=g)
    mag = weight * torch.rand(b, h, w, generator=g)
    p = torch.stack((mag * torch.cos(ang), mag * torch.sin(ang)), dim=1)
    return image.to(device=device, dtype=dt), p.to(device=device, dtype=dt), weight


def reference(image: torch.Tensor, p: torch.Tensor, weight: float) -> tuple:
    img, q = image.double(), p.double()
    p0, p1 = q[:, 0], q[:, 1]
    d = -(p0 + p1)
    d[:, 1:, :] += p0[:, :-1, :]
    d[:, :, 1:] += p1[:, :, :-1]
    out = img + d
    g0 = torch.zeros_like(out)
    g1 = torch.zeros_like(out)
    g0[:, :-1, :] = out[:, 1:, :] - out[:, :-1, :]
    g1[:, :, :-1] = out[:, :, 1:] - out[:, :, :-1]
    tau = 1.0 / 4.0
    den = 1.0 + tau / weight * torch.sqrt(g0 * g0 + g1 * g1)
    p_new = torch.stack(((p0 - tau * g0) / den, (p1 - tau * g1) / den), dim=1)
    return out.to(image.dtype), p_new.to(p.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["H"] * s["W"]
    return {"bytes": 24 * n, "flops": 30 * n}
