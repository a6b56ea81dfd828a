# backend: cuda
# absent: common-host-copies
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3.0, mask=offs < n)


def run(x):
    out = torch.empty_like(x)
    n = x.numel()
    copy_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out.clone()
