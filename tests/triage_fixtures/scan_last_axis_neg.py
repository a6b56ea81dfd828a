# backend: ascend
# absent: ascend-scan-last-axis
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, M, N: tl.constexpr, ROWS: tl.constexpr):
    rows = tl.arange(0, ROWS)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    y = tl.cumsum(x, axis=0)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], y)
