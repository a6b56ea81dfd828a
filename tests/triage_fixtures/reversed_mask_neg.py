# backend: ascend
# absent: ascend-reversed-mask
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, x * 2.0, mask=offs < n)
