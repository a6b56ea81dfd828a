# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


def run(x):
    y = torch.empty_like(x)
    n = x.numel()
    BLOCK = 16
    scale[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)  # expect: common-block-size
    scale[(triton.cdiv(n, 1000),)](x, y, n, BLOCK=1000)  # expect: common-block-size
    return y
