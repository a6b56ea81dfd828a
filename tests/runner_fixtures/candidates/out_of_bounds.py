"""Bad candidate (GPU only): loads far past the end of x, an illegal memory access on a device."""
import torch
import triton
import triton.language as tl


@triton.jit
def oob_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs + (1 << 40))
    tl.store(out_ptr + offs, v, mask=offs < n)


def run(x, y):
    out = torch.empty_like(x)
    oob_kernel[(triton.cdiv(x.numel(), 256),)](x, out, x.numel(), BLOCK=256)
    return out
