# backend: cuda
# absent: cuda-strided-fast-axis
import triton
import triton.language as tl


@triton.jit
def column_sum(x_ptr, out_ptr, n_rows, n_cols, stride_r, stride_c,
               BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    rows = tl.arange(0, BLOCK_R)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0.0)
    y = tl.load(x_ptr + rows[:, None] * stride_r + cols[None, :] * stride_c, mask=mask)
    tl.store(out_ptr + cols, tl.sum(x + y, axis=1), mask=cols < n_cols)
