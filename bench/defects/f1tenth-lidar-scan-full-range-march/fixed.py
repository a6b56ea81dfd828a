"""Batched 2-D lidar scan: rays over (env, beam), fixed-point cell marching on a shared occupancy grid."""
import torch
import triton
import triton.language as tl

RES_M = 0.05
MAX_STEPS = 600


@triton.jit
def _ray_setup(pose, dirs, beam_off, ray, live, n_beams, n_angles):
    env = ray // n_beams
    beam = ray - env * n_beams
    ox = tl.load(pose + env * 3, mask=live, other=0)
    oy = tl.load(pose + env * 3 + 1, mask=live, other=0)
    yaw = tl.load(pose + env * 3 + 2, mask=live, other=0)
    d = (yaw + tl.load(beam_off + beam, mask=live, other=0)) % n_angles
    dx = tl.load(dirs + 2 * d, mask=live, other=0)
    dy = tl.load(dirs + 2 * d + 1, mask=live, other=0)
    return ox, oy, dx, dy


@triton.jit
def _occupied(grid, px, py, H, W, live):
    cx = px >> 16
    cy = py >> 16
    inside = (cx >= 0) & (cx < W) & (cy >= 0) & (cy < H)
    cell = tl.load(grid + cy * W + cx, mask=inside & live, other=1)
    return cell != 0


@triton.jit
def _lidar_scan(grid, pose, dirs, beam_off, ranges, n_rays, n_beams, n_angles, H, W, n_steps, res,
                BLOCK: tl.constexpr):
    ray = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = ray < n_rays
    ox, oy, dx, dy = _ray_setup(pose, dirs, beam_off, ray, live, n_beams, n_angles)
    first = tl.zeros([BLOCK], dtype=tl.int32) + n_steps
    pending = tl.sum(live.to(tl.int32), axis=0)
    k = 1
    while (pending > 0) & (k <= n_steps):
        occ = _occupied(grid, ox + k * dx, oy + k * dy, H, W, live)
        first = tl.where(occ & (k < first), k, first)
        pending = tl.sum((live & (first == n_steps)).to(tl.int32), axis=0)
        k += 1
    tl.store(ranges + ray, first.to(tl.float32) * res, mask=live)


def run(grid: torch.Tensor, pose: torch.Tensor, dirs: torch.Tensor, beam_off: torch.Tensor) -> torch.Tensor:
    H, W = grid.shape
    E, B = pose.shape[0], beam_off.shape[0]
    ranges = torch.empty((E, B), device=grid.device, dtype=torch.float32)
    BLOCK = 128
    grid_size = (triton.cdiv(E * B, BLOCK),)
    _lidar_scan[grid_size](grid, pose, dirs, beam_off, ranges, E * B, B, dirs.shape[0], H, W, MAX_STEPS, RES_M,
                           BLOCK=BLOCK, num_warps=4)
    return ranges
