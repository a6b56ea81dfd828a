# backend: ascend
# absent: ascend-int-compare-where
import triton
import triton.language as tl


@triton.jit
def centered(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + cols, mask=cols < N, other=0.0)
    mean = tl.sum(x, axis=0) / N
    xbar = tl.where(cols.to(tl.float32) < N, x - mean, 0.0)
    pos = tl.where(x > 0.0, x, 0.0)
    tl.store(y_ptr + cols, xbar + pos, mask=cols < N)
