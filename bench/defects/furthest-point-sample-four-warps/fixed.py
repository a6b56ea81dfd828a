"""Furthest point sampling (pointnet2_ops furthest_point_sample): one program per cloud keeps the cloud and the
running min-distances in registers and runs the npoint serial argmax steps, spread over 16 warps."""
import torch
import triton
import triton.language as tl


@triton.jit
def fps_kernel(xyz_ptr, idx_ptr, N, npoint, BLOCK_N: tl.constexpr):
    b = tl.program_id(0)
    offs = tl.arange(0, BLOCK_N)
    mask = offs < N
    cloud = xyz_ptr + b * N * 3
    x = tl.load(cloud + offs * 3, mask=mask, other=0.0)
    y = tl.load(cloud + offs * 3 + 1, mask=mask, other=0.0)
    z = tl.load(cloud + offs * 3 + 2, mask=mask, other=0.0)
    dist = tl.where(mask, 1e10, -1.0)
    out = idx_ptr + b * npoint
    last = b * 0
    tl.store(out, last)
    for i in range(1, npoint):
        cx = tl.load(cloud + last * 3)
        cy = tl.load(cloud + last * 3 + 1)
        cz = tl.load(cloud + last * 3 + 2)
        dx = x - cx
        dy = y - cy
        dz = z - cz
        dist = tl.minimum(dist, dx * dx + dy * dy + dz * dz)
        last = tl.argmax(dist, axis=0)
        tl.store(out + i, last)


def furthest_point_sample(xyz: torch.Tensor, npoint: int) -> torch.Tensor:
    B, N, _ = xyz.shape
    idx = torch.empty((B, npoint), dtype=torch.int32, device=xyz.device)
    BLOCK_N = triton.next_power_of_2(N)
    fps_kernel[(B,)](xyz, idx, N, npoint, BLOCK_N=BLOCK_N, num_warps=16)
    return idx


def run(xyz: torch.Tensor, npoint: int) -> torch.Tensor:
    return furthest_point_sample(xyz, npoint)
