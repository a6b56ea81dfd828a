# backend: cuda
# absent: common-host-casts
import torch
import triton
import triton.language as tl


@triton.jit
def norm_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * N + cols, mask=cols < N).to(tl.float32)
    y = x / tl.sum(x, axis=0)
    tl.store(out_ptr + tl.program_id(0) * N + cols, y.to(out_ptr.dtype.element_ty), mask=cols < N)


def run(x):
    M, N = x.shape
    out = torch.empty_like(x)
    norm_kernel[(M,)](x, out, N, BLOCK=triton.next_power_of_2(N))
    return out
