"""Gaussian smoothing of a 3-D displacement field (ANTs SyN / GaussianSmoothingOnUpdateDisplacementFieldTransform).

After every SyN gradient step ANTs regularises the update field u: [Z, Y, X, 3] (ITK's vector image, the
three components of a voxel interleaved) by separable Gaussian smoothing, one 1-D pass per image axis
(itk::GaussianOperator in a VectorNeighborhoodOperatorImageFilter), x first, then y, then z:
    u'[.., i, .., c] = sum_{k=-R..R} w[k + R] * u[.., i + k, .., c]
with the normalised Gaussian taps w (variance 3 voxels^2, ANTs' `SyN[0.1,3,0]`: sigma = sqrt(3), R = ceil(3 sigma) = 6)
and a zero displacement outside the image (the field is pinned to the identity at the boundary). The
same taps are applied to each component. Returns the smoothed field [Z, Y, X, 3] fp32.
"""
import math

import torch

META = {
    "name": "displacement_field_gaussian_smooth",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"Z": 6, "Y": 7, "X": 9, "variance": 1.0},
        "ragged": {"Z": 5, "Y": 11, "X": 13, "variance": 3.0},
        "large": {"Z": 182, "Y": 218, "X": 182, "variance": 3.0},
    },
    "baseline_notes": "One kernel launched once per axis (x, y, z) over the field as flat fp32 rows: a tap along "
                      "an axis of stride S elements (3, 3X, 3XY) is one contiguous load of the tile shifted by "
                      "k*S, masked to stay inside the row of L*S elements, so the interleaved components need no "
                      "separation; 40 programs (the 910B's vector cores) loop over 2048-element tiles, taps "
                      "unrolled. No autotune.",
    "deterministic": True,
}


def gaussian_taps(variance: float) -> torch.Tensor:
    sigma = math.sqrt(variance)
    radius = max(1, math.ceil(3.0 * sigma))
    k = torch.arange(-radius, radius + 1, dtype=torch.float64)
    w = torch.exp(-0.5 * k * k / variance)
    return w / w.sum()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A rough update field [Z, Y, X, 3] (smooth deformation plus voxel noise, in mm) and the taps [2R+1]."""
    s = META["sizes"][size]
    Z, Y, X = s["Z"], s["Y"], s["X"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    z = torch.linspace(0, 1, Z)[:, None, None]
    y = torch.linspace(0, 1, Y)[None, :, None]
    x = torch.linspace(0, 1, X)[None, None, :]
    shape = (Z, Y, X)
    smooth = torch.stack([(torch.sin(3.1 * y + 1.3 * z) * torch.cos(2.0 * x)).expand(shape),
                          (torch.cos(2.7 * x - 0.4) * torch.sin(1.9 * z + 0.2)).expand(shape),
                          (torch.sin(2.3 * x + 2.9 * y) * 0.5).expand(shape)], dim=-1)
    field = 0.8 * smooth + 0.3 * torch.randn(Z, Y, X, 3, generator=g)
    taps = gaussian_taps(s["variance"])
    return field.to(dt).contiguous().to(device), taps.to(dt).to(device)


def reference(field: torch.Tensor, taps: torch.Tensor) -> torch.Tensor:
    u = field.double()
    w = taps.double()
    radius = (w.numel() - 1) // 2
    for axis in (2, 1, 0):                                   # x, y, z
        n = u.shape[axis]
        out = torch.zeros_like(u)
        for k in range(-radius, radius + 1):
            lo, hi = max(0, -k), min(n, n - k)               # output i reads i + k
            if lo >= hi:
                continue
            out.narrow(axis, lo, hi - lo).add_(w[k + radius] * u.narrow(axis, lo + k, hi - lo))
        u = out
    return u.to(field.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = 3 * s["Z"] * s["Y"] * s["X"]
    taps = gaussian_taps(s["variance"]).numel()
    return {"bytes": 3 * 2 * 4 * n, "flops": 3 * 2 * taps * n}
