"""Point-to-voxel key of OpenPCDet's DynamicVoxelVFE (dynamic voxelisation, DSVT-Voxel Waymo config).

points [N, 6] = (batch_idx, x, y, z, intensity, elongation). Each point gets its voxel coordinate
floor((xyz - range_min) / voxel_size); a point outside the grid gets key -1, the others the merged
key batch * scale_xyz + vx * scale_yz + vy * scale_z + vz (the key torch.unique groups by).
Waymo: range [-74.88, -74.88, -2, 74.88, 74.88, 4], voxel [0.32, 0.32, 0.1875] -> grid 468 x 468 x 32.
"""
import torch

VOXEL = (0.32, 0.32, 0.1875)
PC_RANGE = (-74.88, -74.88, -2.0, 74.88, 74.88, 4.0)
GRID = (468, 468, 32)

META = {
    "name": "dynamic_voxel_key",
    "level": 1,
    "category": "pointcloud",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 2, "N": 1000},
        "ragged": {"B": 3, "N": 1337},
        "large": {"B": 4, "N": 720000},
    },
    "baseline_notes": "40 persistent programs loop over blocks of 1024 points: one [1024, 4] load of the "
                      "(batch, x, y, z) columns split on chip, fp32 floor and range tests, int32 key, one store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """points [N, 6] fp32 (batch index sorted, about 15% of the points outside the grid)."""
    s = META["sizes"][size]
    B, N = s["B"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    batch = torch.sort(torch.randint(0, B, (N,), generator=g)).values.float()
    xy = (torch.rand(N, 2, generator=g) * 2 - 1) * 78.0
    z = torch.rand(N, 1, generator=g) * 6.6 - 2.3
    feats = torch.rand(N, 2, generator=g)
    points = torch.cat([batch[:, None], xy, z, feats], 1)
    return (points.to(dt).to(device),)


def reference(points: torch.Tensor) -> torch.Tensor:
    lo = torch.tensor(PC_RANGE[:3], dtype=points.dtype, device=points.device)
    vs = torch.tensor(VOXEL, dtype=points.dtype, device=points.device)
    grid = torch.tensor(GRID, device=points.device)
    coords = torch.floor((points[:, 1:4] - lo) / vs).long()
    inside = ((coords >= 0) & (coords < grid)).all(1)
    key = (points[:, 0].long() * (GRID[0] * GRID[1] * GRID[2]) + coords[:, 0] * (GRID[1] * GRID[2])
           + coords[:, 1] * GRID[2] + coords[:, 2])
    return torch.where(inside, key, torch.full_like(key, -1)).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    N = META["sizes"][size]["N"]
    return {"bytes": 24 * N + 4 * N, "flops": 20 * N}
