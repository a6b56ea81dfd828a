# backend: cuda
# absent: common-linear-table-scan
import triton
import triton.language as tl


@triton.jit
def count_positive_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    # counting over the element loop itself (no second table): an ordinary reduction
    row = tl.program_id(0)
    total = tl.zeros((BLOCK,), dtype=tl.int32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0)
        total += (v > 0.0).to(tl.int32)
    tl.store(out_ptr + row, tl.sum(total, axis=0))


@triton.jit
def clamp_kernel(x_ptr, lo_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    lo = tl.load(lo_ptr)
    tl.store(out_ptr + offs, tl.where(x < lo, lo, x), mask=offs < n)
