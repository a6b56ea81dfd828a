# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def small(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def run(x):
    y = torch.empty_like(x)
    small[(triton.cdiv(x.numel(), 128),)](x, y, x.numel(), BLOCK=128, num_warps=8)  # expect: cuda-num-warps-exceed-tile
    return y
