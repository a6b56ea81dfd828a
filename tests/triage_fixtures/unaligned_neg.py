# backend: ascend
# absent: ascend-unaligned-tail-axis
import triton
import triton.language as tl


@triton.jit
def rows16(x_ptr, y_ptr, BR: tl.constexpr, BC: tl.constexpr):
    rows = tl.arange(0, BR)
    cols = tl.arange(0, BC)
    x = tl.load(x_ptr + rows[:, None] * BC + cols[None, :])
    tl.store(y_ptr + rows, tl.sum(x, axis=1))


def run(x, y):
    rows16[(1,)](x, y, BR=64, BC=16)
