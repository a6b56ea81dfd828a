# backend: cuda
# absent: cuda-data-dependent-mask
import triton
import triton.language as tl


@triton.jit
def pick_kernel(c_ptr, x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    keep = tl.load(c_ptr + offs, mask=inb, other=0) != 0
    x = tl.load(x_ptr + offs, mask=inb)
    tl.store(out_ptr + offs, tl.where(keep, x, 0.0), mask=inb)
