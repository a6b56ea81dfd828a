# backend: ascend
import torch
import triton
import triton.language as tl


@triton.jit
def fill(x_ptr, m_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = tl.load(m_ptr + offs, mask=offs < n, other=0)  # expect: ascend-ub-overflow
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x * keep, mask=offs < n)


def run(x, m):
    out = torch.empty_like(x)
    fill[(40,)](x, m, out, x.numel(), BLOCK=32768)
    return out
