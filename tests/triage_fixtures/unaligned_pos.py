# backend: ascend
import triton
import triton.language as tl


@triton.jit
def rows3(x_ptr, y_ptr, BR: tl.constexpr):
    rows = tl.arange(0, BR)
    cols = tl.arange(0, 4)
    x = tl.load(x_ptr + rows[:, None] * 4 + cols[None, :])  # expect: ascend-unaligned-tail-axis
    s = tl.load(y_ptr + rows[:, None])  # expect: ascend-unaligned-tail-axis
    tl.store(y_ptr + rows, tl.sum(x * s, axis=1))
