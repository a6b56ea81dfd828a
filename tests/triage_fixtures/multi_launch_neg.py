# backend: cuda
# absent: common-unfused-launches
import torch
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


def run(x, z):
    n = x.numel()
    out = torch.empty_like(x)
    out2 = torch.empty_like(z)
    grid = (triton.cdiv(n, 1024),)
    scale[grid](x, out, n, BLOCK=1024)
    scale[grid](z, out2, n, BLOCK=1024)
    return out, out2
