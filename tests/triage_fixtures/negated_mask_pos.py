# backend: ascend
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    pad = offs >= n
    x = tl.load(x_ptr + offs, mask=~pad, other=0.0)  # expect: ascend-reversed-mask
    tl.store(out_ptr + offs, x * 2.0, mask=offs < n)
