"""PointPillars pillar feature decoration (MMDetection3D PillarFeatureNet.forward before the PFN layers).

Each pillar holds up to N points (x, y, z, r), zero-padded after num_points[p]. Every point is
augmented with its offset from the pillar's point mean (cluster centre, 3 values) and from the
pillar's geometric centre (voxel centre from coors = (batch, z, y, x), 3 values); the 10 features
of padding slots are zeroed. KITTI grid: voxel 0.16 x 0.16 x 4 m over [0, -39.68, -3, 69.12, 39.68, 1].
"""
import torch

VOXEL = (0.16, 0.16, 4.0)
PC_RANGE = (0.0, -39.68, -3.0, 69.12, 39.68, 1.0)
GRID = (432, 496, 1)  # nx, ny, nz

META = {
    "name": "pointpillars_pillar_decorate",
    "level": 2,
    "category": "pointcloud",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"P": 20, "N": 32},
        "ragged": {"P": 37, "N": 20},
        "large": {"P": 40000, "N": 32},
    },
    "baseline_notes": "40 persistent programs loop over blocks of 16 pillars: one contiguous [16, N, 4] load of "
                      "the points, cluster mean by a sum over the point axis, pillar centres from the coors row, "
                      "three [16, N, 4]-shaped stores into the 10-wide output rows.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """voxels [P, N, 4], num_points [P] int32, coors [P, 4] int32 (batch, z, y, x)."""
    s = META["sizes"][size]
    P, N = s["P"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cells = torch.randperm(GRID[0] * GRID[1], generator=g)[:P]
    cx, cy = cells % GRID[0], cells // GRID[0]
    coors = torch.stack([torch.randint(0, 4, (P,), generator=g), torch.zeros(P, dtype=torch.long), cy, cx], 1)
    # most pillars hold a few points, some are full
    num_points = (torch.rand(P, generator=g) ** 3 * N).long().clamp_(1, N)
    num_points[0] = N
    u = torch.rand(P, N, 3, generator=g)
    x = (cx[:, None] + u[..., 0]) * VOXEL[0] + PC_RANGE[0]
    y = (cy[:, None] + u[..., 1]) * VOXEL[1] + PC_RANGE[1]
    z = u[..., 2] * (PC_RANGE[5] - PC_RANGE[2]) + PC_RANGE[2]
    r = torch.rand(P, N, generator=g)
    voxels = torch.stack([x, y, z, r], -1)
    voxels[torch.arange(N)[None, :] >= num_points[:, None]] = 0.0
    return voxels.to(dt).to(device), num_points.to(torch.int32).to(device), coors.to(torch.int32).to(device)


def reference(voxels: torch.Tensor, num_points: torch.Tensor, coors: torch.Tensor) -> torch.Tensor:
    f = voxels.double()
    cnt = num_points.double().view(-1, 1, 1)
    f_cluster = f[:, :, :3] - f[:, :, :3].sum(1, keepdim=True) / cnt
    c = coors.double()
    centre = torch.stack([c[:, 3] * VOXEL[0] + (VOXEL[0] / 2 + PC_RANGE[0]),
                          c[:, 2] * VOXEL[1] + (VOXEL[1] / 2 + PC_RANGE[1]),
                          c[:, 1] * VOXEL[2] + (VOXEL[2] / 2 + PC_RANGE[2])], 1)
    f_center = f[:, :, :3] - centre[:, None, :]
    feats = torch.cat([f, f_cluster, f_center], -1)
    keep = torch.arange(f.shape[1], device=f.device)[None, :] < num_points[:, None].long()
    return (feats * keep[..., None]).to(voxels.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P, N = s["P"], s["N"]
    return {"bytes": 16 * P * N + 20 * P + 40 * P * N, "flops": 14 * P * N}
