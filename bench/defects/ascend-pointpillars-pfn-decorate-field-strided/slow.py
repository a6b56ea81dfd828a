"""PointPillars pillar decoration: raw point, cluster-centre offset and pillar-centre offset per point."""
import torch
import triton
import triton.language as tl

VOXEL = (0.16, 0.16, 4.0)
PC_RANGE = (0.0, -39.68, -3.0, 69.12, 39.68, 1.0)
NUM_CORES = 40


@triton.jit
def _pillar_decorate(vox, npts, coors, out, P, N, vx, vy, vz, x_off, y_off, z_off,
                     BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    pp = tl.arange(0, BLOCK_P)
    nn = tl.arange(0, BLOCK_N)
    for blk in range(pid, tl.cdiv(P, BLOCK_P), nprog):
        p = blk * BLOCK_P + pp
        pm = p < P
        cnt = tl.load(npts + p, mask=pm, other=1).to(tl.float32)
        ctr_x = tl.load(coors + p * 4 + 3, mask=pm, other=0).to(tl.float32) * vx + x_off
        ctr_y = tl.load(coors + p * 4 + 2, mask=pm, other=0).to(tl.float32) * vy + y_off
        ctr_z = tl.load(coors + p * 4 + 1, mask=pm, other=0).to(tl.float32) * vz + z_off
        pt = p[:, None] * N + nn[None, :]
        m = pm[:, None] & (nn < N)[None, :]
        x = tl.load(vox + pt * 4 + 0, mask=m, other=0.0)
        y = tl.load(vox + pt * 4 + 1, mask=m, other=0.0)
        z = tl.load(vox + pt * 4 + 2, mask=m, other=0.0)
        r = tl.load(vox + pt * 4 + 3, mask=m, other=0.0)
        mean_x = tl.sum(x, axis=1) / cnt
        mean_y = tl.sum(y, axis=1) / cnt
        mean_z = tl.sum(z, axis=1) / cnt
        keep = nn[None, :].to(tl.float32) < cnt[:, None]
        dst = out + pt * 10
        tl.store(dst + 0, tl.where(keep, x, 0.0), mask=m)
        tl.store(dst + 1, tl.where(keep, y, 0.0), mask=m)
        tl.store(dst + 2, tl.where(keep, z, 0.0), mask=m)
        tl.store(dst + 3, tl.where(keep, r, 0.0), mask=m)
        tl.store(dst + 4, tl.where(keep, x - mean_x[:, None], 0.0), mask=m)
        tl.store(dst + 5, tl.where(keep, y - mean_y[:, None], 0.0), mask=m)
        tl.store(dst + 6, tl.where(keep, z - mean_z[:, None], 0.0), mask=m)
        tl.store(dst + 7, tl.where(keep, x - ctr_x[:, None], 0.0), mask=m)
        tl.store(dst + 8, tl.where(keep, y - ctr_y[:, None], 0.0), mask=m)
        tl.store(dst + 9, tl.where(keep, z - ctr_z[:, None], 0.0), mask=m)


def run(voxels: torch.Tensor, num_points: torch.Tensor, coors: torch.Tensor) -> torch.Tensor:
    P, N, _ = voxels.shape
    out = torch.empty((P, N, 10), device=voxels.device, dtype=voxels.dtype)
    BLOCK_P = 16
    grid = (max(1, min(NUM_CORES, triton.cdiv(P, BLOCK_P))),)
    _pillar_decorate[grid](voxels, num_points, coors, out, P, N,
                           VOXEL[0], VOXEL[1], VOXEL[2],
                           VOXEL[0] / 2 + PC_RANGE[0], VOXEL[1] / 2 + PC_RANGE[1], VOXEL[2] / 2 + PC_RANGE[2],
                           BLOCK_P=BLOCK_P, BLOCK_N=triton.next_power_of_2(N))
    return out
