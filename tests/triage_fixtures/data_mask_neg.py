# backend: ascend
# absent: ascend-data-dependent-mask
import triton
import triton.language as tl


@triton.jit
def clip_kernel(x_ptr, out_ptr, n, cut, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    x = tl.load(x_ptr + offs, mask=inb, other=0.0)
    tl.store(out_ptr + offs, tl.where(x > cut, cut, x), mask=inb)
