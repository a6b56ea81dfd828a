"""SIRT volume update with a non-negativity constraint (ASTRA SIRT3D_CUDA / TIGRE SIRT), parallel-beam geometry.

One SIRT iteration ends with
    x <- max(x + lambda * C * A^T (R * (b - A x)), 0)
where bp = A^T (R * (b - A x)) is the back-projected weighted residual and C = 1 / (A^T 1) the pixel
weights (ASTRA's D_pixelWeight; TIGRE's V). In a parallel3d geometry whose detector rows are aligned
with the slices, every slice sees the same rays, so C does not depend on z: the port keeps it as a
single [Ny, Nx] plane (1 MiB instead of a 512 MiB volume) broadcast over the slices. This task is the
update step: x, bp [Nz, Ny, Nx] fp32, C [Ny, Nx] fp32, lam [1] fp32 (relaxation) -> the new x.
"""
import math

import torch

META = {
    "name": "sirt_volume_update",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"Z": 3, "Y": 16, "X": 24},
        "ragged": {"Z": 5, "Y": 13, "X": 29},
        "large": {"Z": 512, "Y": 512, "X": 512},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (slice, 4096-voxel block of the slice "
                      "plane) tiles with the slice and block decoded once per tile as scalars: contiguous "
                      "loads of x, bp and the matching block of the C plane, fused multiply-add and clamp, "
                      "one store; no autotune.",
    "deterministic": True,
}

N_ANGLES = 180


def pixel_weights(Y: int, X: int) -> torch.Tensor:
    """1 / (A^T 1) of a parallel-beam scan with N_ANGLES angles over 180 deg and a detector as wide as
    the image: each ray crossing a pixel adds ~1, and pixels beyond the detector's half-width R are
    seen only from the fraction 1 - (2/pi) acos(R / r) of the angles."""
    yy = torch.arange(Y, dtype=torch.float64)[:, None] - (Y - 1) / 2
    xx = torch.arange(X, dtype=torch.float64)[None, :] - (X - 1) / 2
    r = torch.sqrt(xx ** 2 + yy ** 2)
    R = max(X, Y) / 2
    frac = torch.where(r <= R, torch.ones_like(r), 1 - (2 / math.pi) * torch.acos(R / r.clamp(min=R)))
    return 1.0 / (N_ANGLES * frac.clamp(min=1.0 / N_ANGLES))


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [Z, Y, X] (current estimate, >= 0), bp [Z, Y, X] (back-projected residual), C [Y, X], lam [1]."""
    s = META["sizes"][size]
    Z, Y, X = s["Z"], s["Y"], s["X"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.rand(Z, Y, X, generator=g) * 0.02
    bp = (torch.rand(Z, Y, X, generator=g) - 0.5) * 2.0     # residual line integrals summed over angles
    C = pixel_weights(Y, X)
    lam = torch.tensor([0.99])
    return tuple(t.to(dt).to(device) for t in (x, bp, C, lam))


def reference(x: torch.Tensor, bp: torch.Tensor, C: torch.Tensor, lam: torch.Tensor) -> torch.Tensor:
    y = x.double() + lam.double() * C.double()[None, :, :] * bp.double()
    return y.clamp(min=0.0).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["Z"] * s["Y"] * s["X"]
    return {"bytes": 12 * n + 4 * s["Y"] * s["X"], "flops": 3 * n}
