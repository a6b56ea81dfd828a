# backend: ascend
import torch
import triton
import triton.language as tl


@triton.jit
def inc(x_ptr, y_ptr, n, BLOCK: tl.constexpr):  # expect: ascend-single-pass-no-multibuffer
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


def run(x):
    y = torch.empty_like(x)
    inc[(40,)](x, y, x.numel(), BLOCK=1024)
    return y
