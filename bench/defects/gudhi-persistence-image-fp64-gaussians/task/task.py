"""Persistence images of a batch of persistence diagrams (GUDHI representations.PersistenceImage).

Each diagram (points (birth, death)) is first mapped to birth-persistence coordinates (b, p = d - b)
(GUDHI's BirthPersistenceTransform). Every point puts a Gaussian of standard deviation `bandwidth`,
weighted by w = p^2 (the weight of GUDHI's tutorial, `weight=lambda x: x[1]**2`), on a regular grid
x_i = linspace(x0, x1, nx), y_j = linspace(y0, y1, ny):

    image[j, i] = sum_points w * exp(-((b - x_i)^2 + (p - y_j)^2) / (2 sigma^2)) / (2 pi sigma^2)

and the image is flattened row by row (y major), as GUDHI returns it. The diagrams are packed:
`points` [total, 2] (birth, death) fp32 with diagram d at rows offsets[d]:offsets[d+1].
Returns images fp32 [n_diagrams, ny * nx].
"""
import math

import torch

META = {
    "name": "persistence_image",
    "level": 2,
    "category": "topological_data_analysis",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"diagrams": 3, "min_pts": 5, "max_pts": 40, "nx": 10, "ny": 10},
        "ragged": {"diagrams": 4, "min_pts": 0, "max_pts": 37, "nx": 13, "ny": 7},
        "large": {"diagrams": 256, "min_pts": 100, "max_pts": 700, "nx": 100, "ny": 100},
    },
    "baseline_notes": "Grid (diagram, block of 128 pixels); each program walks its diagram's points in chunks "
                      "of 32, evaluates the [128, 32] Gaussian tile in fp32 (tl.exp) and sums it into a "
                      "per-pixel accumulator; one fp32 store per pixel. 4 warps, no autotune.",
    "deterministic": True,
}
BANDWIDTH = 0.025
IM_RANGE = (0.0, 1.0, 0.0, 0.5)  # x0, x1 (birth), y0, y1 (persistence)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Packed diagrams points [total, 2], offsets int32 [n+1], image range, resolution and bandwidth."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randint(s["min_pts"], s["max_pts"] + 1, (s["diagrams"],), generator=g)
    total = int(counts.sum())
    births = torch.rand(total, generator=g) * 0.9
    pers = torch.empty(total).exponential_(12.0, generator=g).clamp(max=0.5)  # most points near the diagonal
    points = torch.stack([births, births + pers], dim=1)
    offsets = torch.zeros(s["diagrams"] + 1, dtype=torch.int32)
    offsets[1:] = torch.cumsum(counts, 0).to(torch.int32)
    return (points.to(device=device, dtype=dt), offsets.to(device), IM_RANGE, s["nx"], s["ny"], BANDWIDTH)


def reference(points: torch.Tensor, offsets: torch.Tensor, im_range: tuple, nx: int, ny: int,
              bandwidth: float) -> torch.Tensor:
    pts = points.double()
    xs = torch.linspace(im_range[0], im_range[1], nx, dtype=torch.float64, device=pts.device)
    ys = torch.linspace(im_range[2], im_range[3], ny, dtype=torch.float64, device=pts.device)
    bounds = offsets.tolist()
    images = []
    for d in range(len(bounds) - 1):
        dgm = pts[bounds[d]:bounds[d + 1]]
        b, p = dgm[:, 0], dgm[:, 1] - dgm[:, 0]
        w = p * p
        gx = torch.exp(-(b[:, None] - xs[None, :]) ** 2 / (2 * bandwidth ** 2))  # [P, nx]
        gy = torch.exp(-(p[:, None] - ys[None, :]) ** 2 / (2 * bandwidth ** 2))  # [P, ny]
        img = torch.einsum("p,pj,pi->ji", w, gy, gx) / (2 * math.pi * bandwidth ** 2)
        images.append(img.reshape(-1))
    return torch.stack(images).to(points.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pts = s["diagrams"] * (s["min_pts"] + s["max_pts"]) // 2
    px = s["nx"] * s["ny"]
    return {"bytes": 8 * pts + 4 * s["diagrams"] * px, "flops": 10 * pts * px}
