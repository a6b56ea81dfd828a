"""ICP correspondence search: nearest target point of every source point within the max correspondence distance.

Open3D's tensor ICP (t.pipelines.registration) finds, at every iteration, the nearest target point of each
transformed source point with core.nns (knn = 1; on CUDA the brute-force KnnSearch path) and drops pairs
farther apart than max_correspondence_distance. For source points p_i [M, 3] and target points q_j [N, 3]:
    j*(i) = argmin_j |p_i - q_j|^2   (first index among exact ties),  d2_i = |p_i - q_j*|^2
    index_i = j*(i) if d2_i <= max_dist^2 else -1,  dist2_i = d2_i if matched else 0
(the index / squared-distance convention of Open3D's HybridSearch). Returns (index int32 [M], dist2 fp32 [M]).
"""
import math

import torch

META = {
    "name": "icp_nearest_correspondence",
    "level": 2,
    "category": "point-cloud",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"M": 100, "N": 300},
        "ragged": {"M": 77, "N": 150},
        "large": {"M": 65536, "N": 65536},
    },
    "baseline_notes": "Blocks of 16 source points per program (4,096 programs at large) stream the target cloud "
                      "in tiles of 128 points: per tile three coordinate loads shared by the 16 queries, a "
                      "[16, 128] squared-distance tile and an element-wise running min / arg-min, reduced per "
                      "query at the end (smallest index among equal minima), then the distance gate. 4 warps, "
                      "no autotune.",
    "deterministic": True,
}
MAX_CORRESPONDENCE_DISTANCE = 0.5  # metres


def _scene(n: int, g: torch.Generator) -> torch.Tensor:
    """A street-scan-like cloud in a 40 m x 40 m patch: ground plane, two facades, scattered poles/cars."""
    u = torch.rand(n, 3, generator=g)
    kind = torch.rand(n, generator=g)
    x = u[:, 0] * 40.0 - 20.0
    y = u[:, 1] * 40.0 - 20.0
    z = 0.02 * torch.randn(n, generator=g)
    wall = kind < 0.3
    side = torch.where(u[:, 2] < 0.5, -8.0, 8.0)
    y = torch.where(wall, side + 0.02 * torch.randn(n, generator=g), y)
    z = torch.where(wall, u[:, 2] * 12.0, z)
    clutter = (kind >= 0.3) & (kind < 0.45)
    z = torch.where(clutter, u[:, 2] * 2.0, z)
    return torch.stack([x, y, z], dim=1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """source [M, 3] (a later scan, moved by the current pose estimate), target [N, 3], max distance."""
    s = META["sizes"][size]
    m, n = s["M"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    target = _scene(n, g)
    source = _scene(m, g)
    yaw = 0.02
    rot = torch.tensor([[math.cos(yaw), -math.sin(yaw), 0.0], [math.sin(yaw), math.cos(yaw), 0.0], [0.0, 0.0, 1.0]])
    source = source @ rot.T + torch.tensor([0.3, -0.1, 0.02])
    # the small sizes shrink the scene to keep the large size's point density (and so its hit rate)
    scale = math.sqrt(n / META["sizes"]["large"]["N"])
    source = source * scale
    # ~5% of the scan is new geometry (a passing truck, 2.5 m up) with no partner in the target
    new = torch.rand(m, generator=g) < 0.05
    source[:, 2] += torch.where(new, 2.5, 0.0)
    # coordinates on a 1/1024 m (~1 mm) grid, as a LiDAR driver reports them: every difference and every squared distance
    # below ~4 m^2 is then exact in fp32, so the arg-min does not depend on FMA contraction or sum order
    target = torch.round(target * scale * 1024.0) / 1024.0
    source = torch.round(source * 1024.0) / 1024.0
    return source.to(device=device, dtype=dt), target.to(device=device, dtype=dt), MAX_CORRESPONDENCE_DISTANCE


def reference(source: torch.Tensor, target: torch.Tensor, max_distance: float) -> tuple:
    p, q = source.double(), target.double()
    index = torch.empty(p.shape[0], dtype=torch.int64, device=p.device)
    dist2 = torch.empty(p.shape[0], dtype=torch.float64, device=p.device)
    for start in range(0, p.shape[0], 512):
        d2 = (p[start:start + 512, None, :] - q[None, :, :]).pow(2).sum(-1)
        dist2[start:start + 512], index[start:start + 512] = d2.min(dim=1)   # first index among ties
    hit = dist2 <= max_distance * max_distance
    index = torch.where(hit, index, torch.full_like(index, -1)).to(torch.int32)
    dist2 = torch.where(hit, dist2, torch.zeros_like(dist2)).to(source.dtype)
    return index, dist2


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 12 * (s["M"] + s["N"]) + 8 * s["M"], "flops": 9 * s["M"] * s["N"]}
