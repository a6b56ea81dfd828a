# backend: cuda
import triton
import triton.language as tl


@triton.jit
def loss_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float64)  # expect: cuda-fp64-math
    tl.store(out_ptr + offs, tl.exp(x).to(tl.float32), mask=offs < n)
