# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3.0, mask=offs < n)


def run(x):
    xt = x.t().contiguous()
    out = torch.empty_like(xt)
    n = xt.numel()
    copy_kernel[(triton.cdiv(n, 1024),)](xt, out, n, BLOCK=1024)  # expect: common-host-copies
    return out
