"""PointPillars pillar decoration: raw point, cluster-centre offset and pillar-centre offset per point."""
import torch
import triton
import triton.language as tl

VOXEL = (0.16, 0.16, 4.0)
PC_RANGE = (0.0, -39.68, -3.0, 69.12, 39.68, 1.0)
NUM_CORES = 40


@triton.jit
def _pillar_centres(coors, p, pm, vx, vy, vz, x_off, y_off, z_off, BLOCK_P: tl.constexpr):
    cc = tl.arange(0, 4)
    crd = tl.load(coors + p[:, None] * 4 + cc[None, :], mask=pm[:, None], other=0).to(tl.float32)
    by, zx = tl.split(tl.reshape(crd, (BLOCK_P, 2, 2)))
    b, y = tl.split(by)
    z, x = tl.split(zx)
    xz = tl.join(x * vx + x_off, z * vz + z_off)
    y0 = tl.join(y * vy + y_off, b * 0.0)
    return tl.reshape(tl.join(xz, y0), (BLOCK_P, 4))


@triton.jit
def _pillar_decorate(vox, npts, coors, out, P, N, vx, vy, vz, x_off, y_off, z_off,
                     BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    pp = tl.arange(0, BLOCK_P)
    nn = tl.arange(0, BLOCK_N)
    cc = tl.arange(0, 4)
    for blk in range(pid, tl.cdiv(P, BLOCK_P), nprog):
        p = blk * BLOCK_P + pp
        pm = p < P
        cnt = tl.load(npts + p, mask=pm, other=1).to(tl.float32)
        centre = _pillar_centres(coors, p, pm, vx, vy, vz, x_off, y_off, z_off, BLOCK_P)
        pt = p[:, None, None] * N + nn[None, :, None]
        m = pm[:, None, None] & (nn < N)[None, :, None] & (cc < 4)[None, None, :]
        raw = tl.load(vox + pt * 4 + cc[None, None, :], mask=m, other=0.0)
        mean = tl.sum(raw, axis=1) / cnt[:, None]
        keep = (nn[None, :].to(tl.float32) < cnt[:, None])[:, :, None]
        dst = out + pt * 10 + cc[None, None, :]
        xyz = m & (cc < 3)[None, None, :]
        tl.store(dst, tl.where(keep, raw, 0.0), mask=m)
        tl.store(dst + 4, tl.where(keep, raw - mean[:, None, :], 0.0), mask=xyz)
        tl.store(dst + 7, tl.where(keep, raw - centre[:, None, :], 0.0), mask=xyz)


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
