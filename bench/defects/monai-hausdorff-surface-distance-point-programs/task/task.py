"""Nearest-surface distances between two segmentation surfaces (MONAI HausdorffDistanceMetric / SurfaceDistanceMetric).

For every surface voxel of the prediction the distance (mm) to the closest surface voxel of the
ground truth, and the other way round; MONAI's Hausdorff distance is the max (or the 95th
percentile) of the two vectors, its average surface distance their mean.
"""
import math

import torch

META = {
    "name": "surface_distance",
    "level": 2,
    "category": "distance",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"NA": 45, "NB": 70},
        "ragged": {"NA": 131, "NB": 97},
        "large": {"NA": 61237, "NB": 57409},
    },
    "baseline_notes": "One launch per direction. Each program takes 64 source points and walks the other "
                      "surface in tiles of 64 points: a [64, 64] tile of squared distances folded into a "
                      "running elementwise minimum, reduced along the tile's columns at the end, sqrt; "
                      "4 warps, no autotune.",
    "deterministic": True,
}

SPACING = (0.78125, 0.78125, 2.5)  # mm, abdominal CT (512 x 512 in-plane, 2.5 mm slices)


def _surface(n: int, radii, centre, g: torch.Generator) -> torch.Tensor:
    """n voxel-centre points (mm) on a bumpy ellipsoid, snapped to the CT grid."""
    d = torch.randn(n, 3, generator=g, dtype=torch.float64)
    d = d / d.norm(dim=1, keepdim=True)
    bump = 1.0 + 0.08 * torch.sin(3.0 * d[:, 0] * math.pi) * torch.cos(2.0 * d[:, 1] * math.pi)
    p = torch.tensor(centre, dtype=torch.float64) + d * torch.tensor(radii, dtype=torch.float64) * bump[:, None]
    sp = torch.tensor(SPACING, dtype=torch.float64)
    return torch.round(p / sp) * sp


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pred surface [NA, 3], ground-truth surface [NB, 3]: (x, y, z) in mm, float32."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    gt = _surface(s["NB"], (95.0, 70.0, 80.0), (200.0, 190.0, 150.0), g)
    pred = _surface(s["NA"], (92.0, 73.0, 77.5), (203.0, 188.0, 152.5), g)
    return pred.to(dt).to(device), gt.to(dt).to(device)


def _nearest(src: torch.Tensor, dst: torch.Tensor, chunk: int = 512) -> torch.Tensor:
    out = []
    for start in range(0, src.shape[0], chunk):
        diff = src[start:start + chunk, None, :] - dst[None, :, :]
        out.append((diff * diff).sum(-1).min(dim=1).values.sqrt())
    return torch.cat(out)


def reference(pred: torch.Tensor, gt: torch.Tensor) -> tuple:
    a, b = pred.double(), gt.double()
    return _nearest(a, b).to(pred.dtype), _nearest(b, a).to(pred.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * 4 * (s["NA"] + s["NB"]), "flops": 2 * 8 * s["NA"] * s["NB"]}
