# backend: ascend
import triton
import triton.language as tl


@triton.jit
def apex(x_ptr, out_ptr, N, n_rows, BLOCK: tl.constexpr):
    for row in range(tl.program_id(0), n_rows, tl.num_programs(0)):
        cols = tl.arange(0, BLOCK)
        ok = cols < N
        left = tl.maximum(cols - 1, 0)
        x = tl.load(x_ptr + row * N + cols, mask=ok, other=0.0)
        xl = tl.load(x_ptr + row * N + left, mask=ok, other=0.0)  # expect: ascend-clamped-index
        tl.store(out_ptr + row * N + cols, tl.where(x > xl, x, 0.0), mask=ok)
