"""Gate fixture (vecadd): right answer, but the kernel also uses input y as scratch space and zeroes it."""
import torch
import triton
import triton.language as tl


@triton.jit
def add_and_clobber(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    total = tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, total, mask=mask)
    tl.store(y_ptr + offs, total * 0, mask=mask)


def run(x, y):
    out = torch.empty_like(x)
    add_and_clobber[(triton.cdiv(x.numel(), 256),)](x, y, out, x.numel(), BLOCK=256)
    return out
