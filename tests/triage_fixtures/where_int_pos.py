# backend: ascend
import triton
import triton.language as tl


@triton.jit
def centered(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols, mask=cols < N, other=0.0)
    mean = tl.sum(x, axis=0) / N
    xbar = tl.where(cols < N, x - mean, 0.0)  # expect: ascend-int-compare-where
    tl.store(y_ptr + cols, xbar, mask=cols < N)
