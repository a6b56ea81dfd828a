# backend: ascend
import triton
import triton.language as tl


@triton.jit
def clip_kernel(x_ptr, out_ptr, n, cut, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inb = offs < n
    x = tl.load(x_ptr + offs, mask=inb, other=0.0)
    tl.store(out_ptr + offs, x, mask=inb)
    tl.store(out_ptr + offs, cut, mask=inb & (x > cut))  # expect: ascend-data-dependent-mask
