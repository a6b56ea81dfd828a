"""Bad candidate: tl.arange needs a power-of-two length, so the kernel does not compile."""
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n):
    offs = tl.program_id(0) * 100 + tl.arange(0, 100)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def run(x, y):
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(x.numel(), 100),)](x, y, out, x.numel())
    return out
