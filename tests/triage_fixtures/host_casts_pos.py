# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def norm_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * N + cols, mask=cols < N)
    tl.store(out_ptr + tl.program_id(0) * N + cols, x / tl.sum(x, axis=0), mask=cols < N)


def run(x):
    M, N = x.shape
    x32 = x.to(torch.float32)
    out = torch.empty_like(x32)
    norm_kernel[(M,)](x32, out, N, BLOCK=triton.next_power_of_2(N))  # expect: common-host-casts
    return out.half()
