# backend: ascend
# absent: ascend-clamped-index
import triton
import triton.language as tl


@triton.jit
def apex(x_ptr, out_ptr, N, n_rows, BLOCK: tl.constexpr):
    for row in range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        ok = cols < N
        x = tl.load(x_ptr + row * N + cols, mask=ok, other=0.0)
        # the shifted range itself under a bounds mask: an affine offset, one tile copy
        xl = tl.load(x_ptr + row * N + cols - 1, mask=ok & (cols >= 1), other=0.0)
        tl.store(out_ptr + row * N + cols, tl.where(x > xl, x, 0.0), mask=ok)
