# backend: cuda
import triton
import triton.language as tl


@triton.jit
def column_sum(x_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    col = tl.program_id(0)
    rows = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rows * n_cols + col, mask=rows < n_rows, other=0.0)  # expect: cuda-strided-fast-axis
    tl.store(out_ptr + col, tl.sum(x, axis=0))


@triton.jit
def transpose_tile(x_ptr, out_ptr, stride_x, stride_out, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    tile = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :])
    tl.store(out_ptr + cols[None, :] * stride_out + rows[:, None], tile)  # expect: cuda-strided-fast-axis
