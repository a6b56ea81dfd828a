# backend: ascend
# absent: ascend-single-pass-no-multibuffer
import torch
import triton
import triton.language as tl


@triton.jit
def inc(x_ptr, y_ptr, n, BLOCK: tl.constexpr, SUB: tl.constexpr):
    for sub in range(0, BLOCK, SUB):
        offs = tl.program_id(0) * BLOCK + sub + tl.arange(0, SUB)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


def run(x):
    y = torch.empty_like(x)
    inc[(40,)](x, y, x.numel(), BLOCK=8192, SUB=1024)
    return y
