"""RAFT all-pairs correlation: the volume computed as tiles of fmap1^T @ fmap2 with tl.dot."""
import math

import torch
import triton
import triton.language as tl

BLOCK_M = 128
BLOCK_N = 128
BLOCK_D = 32


@triton.jit
def _corr_tile(fmap1, fmap2, corr, HW, D, scale,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_m = tl.program_id(0)                 # block of query pixels of frame 1
    pid_n = tl.program_id(1)                 # block of pixels of frame 2
    b = tl.program_id(2)
    f1 = fmap1 + b * D * HW
    f2 = fmap2 + b * D * HW
    i = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    j = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    i_ok = i < HW
    j_ok = j < HW
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        d_ok = d < D
        q = tl.load(f1 + d[None, :] * HW + i[:, None], mask=i_ok[:, None] & d_ok[None, :], other=0.0)
        k = tl.load(f2 + d[:, None] * HW + j[None, :], mask=d_ok[:, None] & j_ok[None, :], other=0.0)
        acc = tl.dot(q, k, acc)
    out = corr + (b * HW + i[:, None]) * HW + j[None, :]
    tl.store(out, acc * scale, mask=i_ok[:, None] & j_ok[None, :])


def run(fmap1: torch.Tensor, fmap2: torch.Tensor) -> torch.Tensor:
    B, D, H, W = fmap1.shape
    HW = H * W
    corr = torch.empty((B * HW, 1, H, W), device=fmap1.device, dtype=torch.float32)
    grid = (triton.cdiv(HW, BLOCK_M), triton.cdiv(HW, BLOCK_N), B)
    _corr_tile[grid](fmap1, fmap2, corr, HW, D, 1.0 / math.sqrt(D),
                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, num_warps=8, num_stages=3)
    return corr
