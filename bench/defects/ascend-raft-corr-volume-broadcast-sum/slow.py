"""RAFT all-pairs correlation for triton-ascend: output tiles spread over the vector cores, each tile a
K-loop of channel-major operand tiles accumulated into the 64 x 64 correlation block."""
import math

import torch
import triton
import triton.language as tl

AIV_CORES = 40


@triton.jit
def _load_channel_tile(base, k0, p0, D, HW, BLOCK_K: tl.constexpr, BLOCK_P: tl.constexpr):
    k = k0 + tl.arange(0, BLOCK_K)
    p = p0 + tl.arange(0, BLOCK_P)
    mask = (k[:, None] < D) & (p[None, :] < HW)
    return tl.load(base + k[:, None] * HW + p[None, :], mask=mask, other=0.0)


@triton.jit
def corr_volume_kernel(f1_ptr, f2_ptr, out_ptr, B, D, HW, scale, tiles_m, tiles_n,
                       NUM_PROGRAMS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                       BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    total = B * tiles_m * tiles_n
    for tile in range(pid, total, NUM_PROGRAMS):
        b = tile // (tiles_m * tiles_n)
        rem = tile - b * tiles_m * tiles_n
        m0 = (rem // tiles_n) * BLOCK_M
        n0 = (rem % tiles_n) * BLOCK_N
        f1 = f1_ptr + b * D * HW
        f2 = f2_ptr + b * D * HW
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k0 in range(0, D, BLOCK_K):
            a = _load_channel_tile(f1, k0, m0, D, HW, BLOCK_K, BLOCK_M)
            bt = _load_channel_tile(f2, k0, n0, D, HW, BLOCK_K, BLOCK_N)
            acc += tl.sum(a[:, :, None] * bt[:, None, :], axis=0)
        rows = m0 + tl.arange(0, BLOCK_M)
        cols = n0 + tl.arange(0, BLOCK_N)
        dst = out_ptr + b * HW * HW + rows[:, None] * HW + cols[None, :]
        tl.store(dst, acc * scale, mask=(rows[:, None] < HW) & (cols[None, :] < HW))


def run(fmap1: torch.Tensor, fmap2: torch.Tensor) -> torch.Tensor:
    B, D, HW = fmap1.shape
    out = torch.empty((B, HW, HW), device=fmap1.device, dtype=torch.float32)
    block_m, block_n, block_k = 64, 64, 8
    tiles_m, tiles_n = triton.cdiv(HW, block_m), triton.cdiv(HW, block_n)
    num_programs = min(AIV_CORES, B * tiles_m * tiles_n)
    launch = dict(NUM_PROGRAMS=num_programs, BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k)
    corr_volume_kernel[(num_programs,)](fmap1, fmap2, out, B, D, HW, 1.0 / math.sqrt(D), tiles_m, tiles_n,
                                        **launch)
    return out
