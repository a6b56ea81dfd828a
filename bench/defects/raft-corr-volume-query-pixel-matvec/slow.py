"""RAFT all-pairs correlation: one correlation map (row of the volume) per query pixel."""
import math

import torch
import triton
import triton.language as tl

BLOCK_N = 128
BLOCK_D = 32


@triton.jit
def _corr_map(fmap1, fmap2, corr, HW, D, scale,
              BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    i = tl.program_id(0)                     # query pixel of frame 1
    b = tl.program_id(1)
    f1 = fmap1 + b * D * HW
    f2 = fmap2 + b * D * HW
    out_row = corr + (b * HW + i) * HW
    for j0 in range(0, HW, BLOCK_N):
        j = j0 + tl.arange(0, BLOCK_N)
        j_ok = j < HW
        acc = tl.zeros([BLOCK_N], dtype=tl.float32)
        for d0 in range(0, D, BLOCK_D):
            d = d0 + tl.arange(0, BLOCK_D)
            d_ok = d < D
            q = tl.load(f1 + d * HW + i, mask=d_ok, other=0.0)
            k = tl.load(f2 + d[:, None] * HW + j[None, :], mask=d_ok[:, None] & j_ok[None, :], other=0.0)
            acc += tl.sum(q[:, None] * k, axis=0)
        tl.store(out_row + j, acc * scale, mask=j_ok)


def run(fmap1: torch.Tensor, fmap2: torch.Tensor) -> torch.Tensor:
    B, D, H, W = fmap1.shape
    HW = H * W
    corr = torch.empty((B * HW, 1, H, W), device=fmap1.device, dtype=torch.float32)
    _corr_map[(HW, B)](fmap1, fmap2, corr, HW, D, 1.0 / math.sqrt(D),
                       BLOCK_N=BLOCK_N, BLOCK_D=BLOCK_D, num_warps=4)
    return corr
