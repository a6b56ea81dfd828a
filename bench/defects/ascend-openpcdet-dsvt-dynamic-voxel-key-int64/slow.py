"""Dynamic voxelisation: merged voxel key per point (-1 outside the grid)."""
import torch
import triton
import triton.language as tl

VOXEL = (0.32, 0.32, 0.1875)
PC_RANGE = (-74.88, -74.88, -2.0, 74.88, 74.88, 4.0)
GRID = (468, 468, 32)
NUM_CORES = 40


@triton.jit
def _voxel_key(pts, keys, n_pts, x_min, y_min, z_min, vx, vy, vz, nx, ny, nz,
               scale_xyz, scale_yz, scale_z, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rr = tl.arange(0, BLOCK)
    cc = tl.arange(0, 4)
    for blk in range(pid, tl.cdiv(n_pts, BLOCK), nprog):
        r = blk * BLOCK + rr
        rm = r < n_pts
        rec = tl.load(pts + r[:, None] * 6 + cc[None, :], mask=rm[:, None], other=0.0)
        by, xz = tl.split(tl.reshape(rec, (BLOCK, 2, 2)))
        b, y = tl.split(by)
        x, z = tl.split(xz)
        gx = tl.floor((x - x_min) / vx).to(tl.int64)
        gy = tl.floor((y - y_min) / vy).to(tl.int64)
        gz = tl.floor((z - z_min) / vz).to(tl.int64)
        inside = (gx >= 0) & (gx < nx) & (gy >= 0) & (gy < ny) & (gz >= 0) & (gz < nz)
        key = b.to(tl.int64) * scale_xyz + gx * scale_yz + gy * scale_z + gz
        tl.store(keys + r, tl.where(inside, key, -1).to(tl.int32), mask=rm)


def run(points: torch.Tensor) -> torch.Tensor:
    N = points.shape[0]
    keys = torch.empty(N, device=points.device, dtype=torch.int32)
    BLOCK = 1024
    grid = (max(1, min(NUM_CORES, triton.cdiv(N, BLOCK))),)
    _voxel_key[grid](points, keys, N, PC_RANGE[0], PC_RANGE[1], PC_RANGE[2], VOXEL[0], VOXEL[1], VOXEL[2],
                     GRID[0], GRID[1], GRID[2],
                     GRID[0] * GRID[1] * GRID[2], GRID[1] * GRID[2], GRID[2], BLOCK=BLOCK)
    return keys
