"""Projective colour integration into a voxel-block colour layer (nvblox ProjectiveColorIntegrator).

The colour layer holds N 8x8x8 voxel blocks (block index (bx, by, bz) int32), the TSDF blocks that reach
the truncation band; voxels are stored as nvblox's VoxelBlock does, voxels[x][y][z] (linear voxel index
x * 64 + y * 8 + z, z fastest), colour as uint8 RGB [N, 512, 3] and weight fp32 [N, 512].

For every voxel: centre p_L = ((8 * b + v) + 0.5) * voxel_size, p_C = R_C_L p_L + t_C_L (pose [3, 4]); it
is seen when 0 < z_C <= max_integration_distance and its projection u = fx * x_C / z_C + cx,
v = fy * y_C / z_C + cy falls in the image (closest pixel: column floor(u), row floor(v)). The depth
image is the one nvblox sphere-traces from the TSDF at the colour camera's pose (0 where no surface was
hit); voxels farther than the truncation distance from that surface, |depth - z_C| > truncation, are
skipped (occlusion test). The others blend the pixel's colour with measurement weight 1, as nvblox's
blendTwoColors:
    c <- round(c * w / (w + 1) + c_pixel * 1 / (w + 1)) per channel,   w <- min(w + 1, max_weight)
Returns (colour [N, 512, 3] uint8, weight [N, 512] fp32); the inputs are not modified.

Test data: voxel size 1/128 m, a level, axis-aligned camera (looking along world +x) on the 1/256 m grid,
fx = fy = 384, cx, cy = 320 - 1/2048, 240 - 1/2048: the voxel coordinates in the camera frame are exact
and every projection within the max distance lies ~5e-4 px or more from a pixel edge, so the seen / in-band decisions do not
depend on FMA contraction or approximate division. The blended value can sit exactly on a .5 rounding
boundary (e.g. w = 1), where an approximate division rounds the other way: colour is checked to +-1.
"""
import math

import torch

META = {
    "name": "color_integrate_blocks",
    "level": 2,
    "category": "3d-mapping",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 5, "H": 480, "W": 640},
        "ragged": {"N": 11, "H": 480, "W": 640},
        "large": {"N": 12288, "H": 480, "W": 640},
    },
    "baseline_notes": "One program per voxel block (512 voxels, 4 warps) in storage order: projection, "
                      "closest-pixel gathers of the sphere-traced depth and of the RGB8 image, per-channel "
                      "blend and weight update, byte loads/stores of the three channels. No autotune.",
    "deterministic": True,
}

VOXEL_SIZE = 1.0 / 128.0         # m (block side 6.25 cm)
TRUNCATION = 4.0 * VOXEL_SIZE    # nvblox truncation_distance_vox = 4
MAX_WEIGHT = 100.0
MAX_DISTANCE = 4.0               # m, max integration distance
FX = FY = 384.0


def _render(H, W, fx, fy, cx, cy, cam, g):
    """Depth (float64, along the optical axis; 0 = no hit) and RGB8 image of a room with boxes."""
    col = torch.arange(W, dtype=torch.float64) + 0.5
    row = torch.arange(H, dtype=torch.float64) + 0.5
    a = ((col[None, :] - cx) / fx).expand(H, W)
    b = ((row[:, None] - cy) / fy).expand(H, W)
    dirs = (torch.ones_like(a), -a, -b)               # world direction per unit depth (camera looks along +x)
    safe = [torch.where(d.abs() < 1e-12, torch.full_like(d, 1e-12), d) for d in dirs]
    depth = torch.full((H, W), math.inf, dtype=torch.float64)
    label = torch.zeros(H, W, dtype=torch.long)
    back = 3.3 + 0.4 * float(torch.rand(1, generator=g))
    half = 2.1 + 0.3 * float(torch.rand(1, generator=g))
    planes = [(0, back), (1, half), (1, -half), (2, 0.0), (2, 2.6)]
    for k, (axis, value) in enumerate(planes):
        t = (value - float(cam[axis])) / safe[axis]
        closer = (t > 0) & (t < depth)
        depth = torch.where(closer, t, depth)
        label = torch.where(closer, torch.full_like(label, k), label)
    for k in range(3):
        lo = torch.tensor([1.0 + 2.0 * float(torch.rand(1, generator=g)), -1.6 + 2.6 * float(torch.rand(1, generator=g)),
                           0.0], dtype=torch.float64)
        hi = lo + torch.tensor([0.3 + 0.5 * float(torch.rand(1, generator=g)), 0.3 + 0.6 * float(torch.rand(1, generator=g)),
                                0.4 + 0.9 * float(torch.rand(1, generator=g))], dtype=torch.float64)
        tmin = torch.full((H, W), -math.inf, dtype=torch.float64)
        tmax = torch.full((H, W), math.inf, dtype=torch.float64)
        for axis in range(3):
            t1 = (float(lo[axis]) - float(cam[axis])) / safe[axis]
            t2 = (float(hi[axis]) - float(cam[axis])) / safe[axis]
            tmin = torch.maximum(tmin, torch.minimum(t1, t2))
            tmax = torch.minimum(tmax, torch.maximum(t1, t2))
        closer = (tmax >= tmin) & (tmin > 0) & (tmin < depth)
        depth = torch.where(closer, tmin, depth)
        label = torch.where(closer, torch.full_like(label, len(planes) + k), label)
    hit = [float(cam[i]) + depth * dirs[i] for i in range(3)]
    base = torch.rand(len(planes) + 3, 3, generator=g, dtype=torch.float64) * 160.0 + 60.0
    texture = 0.75 + 0.25 * torch.sin(7.0 * hit[0] + 3.0 * hit[2]) * torch.cos(5.0 * hit[1])
    rgb = base[label] * texture[..., None] + 6.0 * torch.randn(H, W, 3, generator=g, dtype=torch.float64)
    rgb = rgb.round().clamp(0, 255).to(torch.uint8)
    depth = torch.where(torch.isfinite(depth), depth, torch.zeros_like(depth))
    return depth, rgb


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """block_idx [N, 3] int32, depth [H, W], rgb [H, W, 3] uint8, pose T_C_L [3, 4], camera (fx, fy, cx, cy) [4],
    colour [N, 512, 3] uint8, weight [N, 512], voxel_size, truncation, max_weight, max_distance."""
    s = META["sizes"][size]
    n, H, W = s["N"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    fx, fy, cx, cy = FX, FY, W / 2.0 - 1.0 / 2048.0, H / 2.0 - 1.0 / 2048.0
    cam = torch.tensor([int(torch.randint(-32, 32, (1,), generator=g)) / 256.0,
                        int(torch.randint(-32, 32, (1,), generator=g)) / 256.0,
                        1.0 + int(torch.randint(-32, 32, (1,), generator=g)) / 256.0], dtype=torch.float64)
    R = torch.tensor([[0.0, -1.0, 0.0], [0.0, 0.0, -1.0], [1.0, 0.0, 0.0]], dtype=torch.float64)
    pose = torch.cat([R, (-R @ cam)[:, None]], dim=1)
    depth, rgb = _render(H, W, fx, fy, cx, cy, cam, g)
    # blocks in view whose centre lies within one block of the rendered surface (the truncation band)
    bs = 8 * VOXEL_SIZE
    bx, by, bz = torch.meshgrid(torch.arange(-2, 70), torch.arange(-60, 61), torch.arange(-20, 46), indexing="ij")
    blocks = torch.stack([bx, by, bz], dim=-1).reshape(-1, 3)
    pc = ((blocks.double() + 0.5) * bs) @ R.T + pose[:, 3]
    z = pc[:, 2]
    zs = z.clamp(min=1e-6)
    c = torch.floor(fx * pc[:, 0] / zs + cx).long()
    r = torch.floor(fy * pc[:, 1] / zs + cy).long()
    ok = (z > 0.05) & (z < MAX_DISTANCE) & (c >= 0) & (c < W) & (r >= 0) & (r < H)
    surf = depth[r.clamp(0, H - 1), c.clamp(0, W - 1)]
    band = ok & (surf > 0) & ((surf - z).abs() < bs * math.sqrt(3.0) / 2.0 + TRUNCATION)
    cand = blocks[band]
    assert cand.shape[0] >= n, (cand.shape[0], n)
    block_idx = cand[torch.randperm(cand.shape[0], generator=g)[:n]].to(torch.int32)
    colour = torch.randint(0, 256, (n, 512, 3), generator=g, dtype=torch.uint8)
    weight = torch.randint(0, 21, (n, 512), generator=g).float()
    rr = torch.rand(n, 512, generator=g)
    weight[rr < 0.10] = 0.0
    weight[rr > 0.95] = MAX_WEIGHT
    colour[weight == 0] = 0
    camera = torch.tensor([fx, fy, cx, cy])
    return (block_idx.to(device), depth.to(dt).to(device), rgb.to(device), pose.to(dt).to(device),
            camera.to(dt).to(device), colour.to(device), weight.to(dt).to(device),
            VOXEL_SIZE, TRUNCATION, MAX_WEIGHT, MAX_DISTANCE)


def reference(block_idx, depth, rgb, pose, camera, colour, weight, voxel_size, truncation, max_weight, max_distance):
    H, W = depth.shape
    v = torch.arange(512, device=depth.device)
    vox = torch.stack([v // 64, (v // 8) % 8, v % 8], dim=-1)                            # storage order x, y, z
    p = ((block_idx[:, None, :] * 8 + vox[None]).to(torch.float32) + 0.5) * voxel_size  # [N, 512, 3], exact
    r = pose
    xc = r[0, 0] * p[..., 0] + r[0, 1] * p[..., 1] + r[0, 2] * p[..., 2] + r[0, 3]
    yc = r[1, 0] * p[..., 0] + r[1, 1] * p[..., 1] + r[1, 2] * p[..., 2] + r[1, 3]
    zc = r[2, 0] * p[..., 0] + r[2, 1] * p[..., 1] + r[2, 2] * p[..., 2] + r[2, 3]
    u = camera[0] * xc / zc + camera[2]
    vv = camera[1] * yc / zc + camera[3]
    col = torch.floor(torch.nan_to_num(u, nan=-1.0, posinf=-1.0, neginf=-1.0)).clamp(-1, W).long()
    row = torch.floor(torch.nan_to_num(vv, nan=-1.0, posinf=-1.0, neginf=-1.0)).clamp(-1, H).long()
    seen = (zc > 0) & (zc <= max_distance) & (col >= 0) & (col < W) & (row >= 0) & (row < H)
    rc, cc = row.clamp(0, H - 1), col.clamp(0, W - 1)
    surface = depth[rc, cc]
    upd = seen & ((surface - zc).abs() <= truncation)
    pix = rgb[rc, cc].to(torch.float32)                                                  # [N, 512, 3]
    total = weight + 1.0
    first = (weight / total)[..., None]
    second = (1.0 / total)[..., None]
    blended = torch.floor(colour.to(torch.float32) * first + pix * second + 0.5).clamp(0, 255).to(torch.uint8)
    new_w = torch.clamp(weight + 1.0, max=max_weight)
    return torch.where(upd[..., None], blended, colour), torch.where(upd, new_w, weight)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 14 * 512 * n, "flops": 70 * 512 * n}
