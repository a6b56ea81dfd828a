# backend: cuda
# absent: cuda-fp64-math
import triton
import triton.language as tl


@triton.jit
def loss_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)
    tl.store(out_ptr + offs, tl.exp(x), mask=offs < n)
