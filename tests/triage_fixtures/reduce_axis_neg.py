# backend: cuda
# absent: cuda-reduce-strided-axis
import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, stride, BR: tl.constexpr, BC: tl.constexpr):
    rows = tl.arange(0, BR)
    cols = tl.arange(0, BC)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :])
    tl.store(out_ptr + rows, tl.sum(x, axis=1))
    v = tl.load(x_ptr + cols)
    tl.store(out_ptr, tl.sum(v, axis=0))
