# backend: cuda
import triton
import triton.language as tl


@triton.jit
def column_sum(x_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    col = tl.program_id(0)
    rows = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rows * n_cols + col, mask=rows < n_rows, other=0.0)  # expect: cuda-strided-fast-axis
    tl.store(out_ptr + col, tl.sum(x, axis=0))
