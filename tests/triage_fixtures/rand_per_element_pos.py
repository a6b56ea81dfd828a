# backend: cuda
import triton
import triton.language as tl


@triton.jit
def dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    keep = tl.rand(seed, offs) >= p  # expect: common-rand-per-element
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=offs < n)
