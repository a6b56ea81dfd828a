"""2-D ESDF slice of a voxel map (nvblox EsdfIntegrator in 2-D mode, the distance map Nav2's costmap reads).

The obstacle slice `occupied` [H, W] uint8 (1 = an occupied TSDF voxel inside the slice's height band,
0 = free) is turned into the Euclidean distance from every cell to the nearest occupied cell, in metres,
capped at max_esdf_distance (R = max_distance / voxel_size cells):
    esdf(y, x) = min(sqrt(min over occupied (y', x') of (y - y')^2 + (x - x')^2), R) * voxel_size
computed exactly and separably: a row pass gives g(y, x) = |x - x'| to the nearest occupied cell of the
same row (capped at R + 1), a column pass d^2(y, x) = min over |k| <= R of g(y + k, x)^2 + k^2
(Felzenszwalb-style, with the window bounded by the cap). All intermediate values are small integers,
so the result is exact up to the final fp32 sqrt.
"""
import torch

META = {
    "name": "esdf_slice_2d",
    "level": 2,
    "category": "3d-mapping",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 48, "W": 64},
        "ragged": {"H": 75, "W": 133},
        "large": {"H": 1024, "W": 1024},
    },
    "baseline_notes": "Row pass: one program per row, the whole row as one tile (next power of two), the last "
                      "obstacle to the left as an associative max-scan and the next one to the right as a reversed "
                      "min-scan, int32 distances. Column pass: 32x64 tiles, a loop over the 2R+1 row offsets with "
                      "coalesced row loads, int32 min of g^2 + k^2, one fp32 sqrt. No autotune.",
    "deterministic": True,
}

VOXEL_SIZE = 0.05     # m, nvblox's default voxel size
MAX_DISTANCE = 2.0    # m, nvblox's default max_esdf_distance_m -> R = 40 cells


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """occupied [H, W] uint8 (a warehouse floor plan: walls with doorways, shelf rows, clutter), voxel_size,
    max_distance."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    occ = torch.zeros(H, W, dtype=torch.bool)
    occ[0, :] = occ[-1, :] = True
    occ[:, 0] = occ[:, -1] = True
    # interior walls with doorways
    for _ in range(max(1, H // 160)):
        y = int(torch.randint(H // 8, H - H // 8, (1,), generator=g))
        occ[y, :] = True
        for _ in range(3):
            d = int(torch.randint(0, W - 8, (1,), generator=g))
            occ[y, d:d + max(3, W // 60)] = False
    for _ in range(max(1, W // 200)):
        x = int(torch.randint(W // 8, W - W // 8, (1,), generator=g))
        occ[:, x] = True
        for _ in range(3):
            d = int(torch.randint(0, H - 8, (1,), generator=g))
            occ[d:d + max(3, H // 60), x] = False
    # shelf rows (0.8 m deep racks with 3 m aisles at 5 cm cells), in a few zones
    for _ in range(max(1, (H * W) // 150_000)):
        y0 = int(torch.randint(0, max(1, H - H // 4), (1,), generator=g))
        x0 = int(torch.randint(0, max(1, W - W // 4), (1,), generator=g))
        for r in range(y0 + 4, min(H - 2, y0 + H // 4), 76):
            occ[r:r + 16, x0 + 4:min(W - 2, x0 + W // 4)] = True
    # clutter: pallets, boxes, people's legs, sensor noise
    occ |= torch.rand(H, W, generator=g) < 0.0002
    for _ in range(max(2, (H * W) // 40_000)):
        y = int(torch.randint(0, H - 6, (1,), generator=g))
        x = int(torch.randint(0, W - 6, (1,), generator=g))
        h, w = (int(v) for v in torch.randint(2, 6, (2,), generator=g))
        occ[y:y + h, x:x + w] = True
    return occ.to(torch.uint8).to(device), VOXEL_SIZE, MAX_DISTANCE


def reference(occupied: torch.Tensor, voxel_size: float, max_distance: float) -> torch.Tensor:
    H, W = occupied.shape
    R = int(round(max_distance / voxel_size))
    cap = R + 1
    site = occupied != 0
    x = torch.arange(W, device=occupied.device).expand(H, W)
    last = torch.where(site, x, torch.full_like(x, -cap)).cummax(dim=1).values
    nxt = torch.where(site, x, torch.full_like(x, W + cap)).flip(1).cummin(dim=1).values.flip(1)
    g = torch.minimum(torch.minimum(x - last, nxt - x), torch.full_like(x, cap))
    padded = torch.full((H + 2 * R, W), cap, dtype=g.dtype, device=g.device)
    padded[R:R + H] = g
    best = torch.full((H, W), cap * cap, dtype=g.dtype, device=g.device)
    for k in range(-R, R + 1):
        gk = padded[R + k:R + k + H]
        best = torch.minimum(best, gk * gk + k * k)
    return torch.clamp(torch.sqrt(best.to(torch.float32)), max=float(R)) * voxel_size


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    R = int(round(MAX_DISTANCE / VOXEL_SIZE))
    return {"bytes": 13 * n, "flops": 4 * (2 * R + 1) * n}
