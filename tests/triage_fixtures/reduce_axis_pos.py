# backend: cuda
import triton
import triton.language as tl


@triton.jit
def col_sum(x_ptr, out_ptr, stride, BR: tl.constexpr, BC: tl.constexpr):
    rows = tl.arange(0, BR)
    cols = tl.arange(0, BC)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :])
    tl.store(out_ptr + cols, tl.sum(x, axis=0))  # expect: cuda-reduce-strided-axis
