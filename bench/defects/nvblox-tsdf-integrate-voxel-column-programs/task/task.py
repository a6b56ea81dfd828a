"""Projective TSDF integration of one depth frame into a voxel-block map (nvblox ProjectiveTsdfIntegrator).

The map is a list of N allocated 8x8x8 voxel blocks (block index (bx, by, bz) int32; block side 8 * voxel_size).
Inside a block the voxels are stored as nvblox's VoxelBlock does, voxels[x][y][z]: linear voxel index
x * 64 + y * 8 + z, z fastest. Distances and weights are kept as two fp32 arrays [N, 512].

For every voxel: centre p_L = ((8 * b + v) + 0.5) * voxel_size, p_C = R_C_L p_L + t_C_L (pose [3, 4]);
it is seen when 0 < z_C <= max_integration_distance and its projection u = fx * x_C / z_C + cx,
v = fy * y_C / z_C + cy falls in the image (closest pixel: column floor(u), row floor(v), as
nvblox's interpolate2DClosest); the depth d of that pixel must be > 0 (valid). With sdf = d - z_C,
voxels with sdf < -truncation are skipped (occluded); the others are fused with measurement weight 1:
    distance <- clamp((sdf + distance * weight) / (1 + weight), -truncation, truncation)
    weight   <- min(weight + 1, max_weight)
Returns the updated (distance [N, 512], weight [N, 512]) fp32; the inputs are not modified.

Test data: the voxel size is 1/64 m, the camera is level and axis-aligned (looking along world +x) at a
position on the 1/128 m grid, fx = fy = 384 and cx, cy = 320 - 1/1024, 240 - 1/1024. Every voxel
coordinate in the camera frame is then exact in fp32, every sdf test is one correctly rounded
subtraction, and every projection lies at least ~1e-3 px from a pixel edge, so the seen/occluded
decisions do not depend on FMA contraction or approximate division and the GPU result matches the
reference to rounding.
"""
import math

import torch

META = {
    "name": "tsdf_integrate_blocks",
    "level": 2,
    "category": "3d-mapping",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 6, "H": 480, "W": 640},
        "ragged": {"N": 13, "H": 480, "W": 640},
        "large": {"N": 24576, "H": 480, "W": 640},
    },
    "baseline_notes": "One program per voxel block (512 voxels, 4 warps): the tile index walks the block in "
                      "storage order (z fastest), so distance and weight are loaded and stored with 128-bit "
                      "contiguous accesses; the voxel's (x, y, z) is decoded from the index with shifts; one "
                      "nearest-pixel depth gather per voxel. No autotune.",
    "deterministic": True,
}

VOXEL_SIZE = 1.0 / 64.0          # m (block side 0.125 m)
TRUNCATION = 4.0 * VOXEL_SIZE    # nvblox truncation_distance_vox = 4
MAX_WEIGHT = 100.0
MAX_DISTANCE = 4.0               # m, max integration distance
FX = FY = 384.0


def _camera(H: int, W: int) -> tuple:
    return FX, FY, W / 2.0 - 1.0 / 1024.0, H / 2.0 - 1.0 / 1024.0


def _room_depth(H, W, fx, fy, cx, cy, cam, g):
    """Render a depth image (float64, metres along the optical axis) of a room with three boxes."""
    col = torch.arange(W, dtype=torch.float64) + 0.5
    row = torch.arange(H, dtype=torch.float64) + 0.5
    a = ((col[None, :] - cx) / fx).expand(H, W)       # camera x per unit depth
    b = ((row[:, None] - cy) / fy).expand(H, W)       # camera y per unit depth
    # camera looks along world +x: world dir = (1, -a, -b) per unit depth
    dx, dy, dz = torch.ones_like(a), -a, -b
    far = torch.full((H, W), math.inf, dtype=torch.float64)
    back = 3.3 + 0.4 * float(torch.rand(1, generator=g))
    half = 2.1 + 0.3 * float(torch.rand(1, generator=g))
    planes = [(0, back, dx), (1, half, dy), (1, -half, dy), (2, 0.0, dz), (2, 2.6, dz)]
    o = cam
    for axis, value, d in planes:
        t = (value - o[axis]) / torch.where(d.abs() < 1e-12, torch.full_like(d, 1e-12), d)
        far = torch.where(t > 0, torch.minimum(far, t), far)
    for _ in range(3):  # axis-aligned boxes standing on the floor
        lo = torch.tensor([1.0 + 2.0 * float(torch.rand(1, generator=g)), -1.6 + 2.6 * float(torch.rand(1, generator=g)), 0.0],
                          dtype=torch.float64)
        hi = lo + torch.tensor([0.3 + 0.5 * float(torch.rand(1, generator=g)), 0.3 + 0.6 * float(torch.rand(1, generator=g)),
                                0.4 + 0.9 * float(torch.rand(1, generator=g))], dtype=torch.float64)
        tmin = torch.full((H, W), -math.inf, dtype=torch.float64)
        tmax = torch.full((H, W), math.inf, dtype=torch.float64)
        for axis, d in enumerate((dx, dy, dz)):
            dd = torch.where(d.abs() < 1e-12, torch.full_like(d, 1e-12), d)
            t1 = (lo[axis] - o[axis]) / dd
            t2 = (hi[axis] - o[axis]) / dd
            tmin = torch.maximum(tmin, torch.minimum(t1, t2))
            tmax = torch.minimum(tmax, torch.maximum(t1, t2))
        hit = (tmax >= tmin) & (tmin > 0)
        far = torch.where(hit, torch.minimum(far, tmin), far)
    depth = far + 0.0015 * far * far * torch.randn(H, W, generator=g, dtype=torch.float64)
    depth[torch.rand(H, W, generator=g) < 0.02] = 0.0   # invalid pixels (stereo holes)
    return depth


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """block_idx [N, 3] int32, depth [H, W], pose T_C_L [3, 4], camera (fx, fy, cx, cy) [4],
    distance [N, 512], weight [N, 512], voxel_size, truncation, max_weight, max_distance."""
    s = META["sizes"][size]
    n, H, W = s["N"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    fx, fy, cx, cy = _camera(H, W)
    cam = torch.tensor([int(torch.randint(-16, 16, (1,), generator=g)) / 128.0,
                        int(torch.randint(-16, 16, (1,), generator=g)) / 128.0,
                        1.0 + int(torch.randint(-16, 16, (1,), generator=g)) / 128.0], dtype=torch.float64)
    R = torch.tensor([[0.0, -1.0, 0.0], [0.0, 0.0, -1.0], [1.0, 0.0, 0.0]], dtype=torch.float64)
    pose = torch.cat([R, (-R @ cam)[:, None]], dim=1)
    depth = _room_depth(H, W, fx, fy, cx, cy, cam, g)
    # blocks in the view frustum up to the max integration distance (nvblox getBlocksInViewPlanes)
    bs = 8 * VOXEL_SIZE
    rng = torch.arange(-48, 49)
    bx, by, bz = torch.meshgrid(torch.arange(-2, 40), rng, torch.arange(-24, 30), indexing="ij")
    blocks = torch.stack([bx, by, bz], dim=-1).reshape(-1, 3)
    centre = (blocks.double() + 0.5) * bs
    pc = centre @ R.T + pose[:, 3]
    rad = bs * math.sqrt(3.0) / 2.0
    z = pc[:, 2]
    inside = ((z > -rad) & (z < MAX_DISTANCE + rad)
              & ((pc[:, 0].abs() - rad) * fx <= (W / 2) * (z + rad))
              & ((pc[:, 1].abs() - rad) * fy <= (H / 2) * (z + rad)))
    cand = blocks[inside]
    assert cand.shape[0] >= n, (cand.shape[0], n)
    block_idx = cand[torch.randperm(cand.shape[0], generator=g)[:n]].to(torch.int32)
    dist = (torch.rand(n, 512, generator=g) * 2.0 - 1.0) * TRUNCATION
    weight = torch.randint(0, 41, (n, 512), generator=g).float()
    r = torch.rand(n, 512, generator=g)
    weight[r < 0.10] = 0.0
    weight[r > 0.95] = MAX_WEIGHT
    dist[weight == 0] = 0.0
    camera = torch.tensor([fx, fy, cx, cy])
    return (block_idx.to(device), depth.to(dt).to(device), pose.to(dt).to(device), camera.to(dt).to(device),
            dist.to(dt).to(device), weight.to(dt).to(device), VOXEL_SIZE, TRUNCATION, MAX_WEIGHT, MAX_DISTANCE)


def reference(block_idx, depth, pose, camera, distance, weight, voxel_size, truncation, max_weight, max_distance):
    H, W = depth.shape
    v = torch.arange(512, device=depth.device)
    vox = torch.stack([v // 64, (v // 8) % 8, v % 8], dim=-1)                      # storage order x, y, z
    p = ((block_idx[:, None, :] * 8 + vox[None]).to(torch.float32) + 0.5) * voxel_size  # [N, 512, 3], exact
    r = pose
    xc = r[0, 0] * p[..., 0] + r[0, 1] * p[..., 1] + r[0, 2] * p[..., 2] + r[0, 3]
    yc = r[1, 0] * p[..., 0] + r[1, 1] * p[..., 1] + r[1, 2] * p[..., 2] + r[1, 3]
    zc = r[2, 0] * p[..., 0] + r[2, 1] * p[..., 1] + r[2, 2] * p[..., 2] + r[2, 3]
    fx, fy, cx, cy = camera[0], camera[1], camera[2], camera[3]
    u = fx * xc / zc + cx
    vv = fy * yc / zc + cy
    col = torch.floor(torch.nan_to_num(u, nan=-1.0, posinf=-1.0, neginf=-1.0)).clamp(-1, W).long()
    row = torch.floor(torch.nan_to_num(vv, nan=-1.0, posinf=-1.0, neginf=-1.0)).clamp(-1, H).long()
    seen = (zc > 0) & (zc <= max_distance) & (col >= 0) & (col < W) & (row >= 0) & (row < H)
    d = depth[row.clamp(0, H - 1), col.clamp(0, W - 1)]
    sdf = d - zc
    upd = seen & (d > 0) & (sdf >= -truncation)
    fused = ((sdf + distance * weight) / (1.0 + weight)).clamp(-truncation, truncation)
    new_w = torch.clamp(weight + 1.0, max=max_weight)
    return torch.where(upd, fused, distance), torch.where(upd, new_w, weight)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 16 * 512 * n, "flops": 60 * 512 * n}
