# backend: cuda
import triton
import triton.language as tl


@triton.jit
def copy2d(src, dst, stride_row, stride_col, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(src + row * stride_row + cols * stride_col, mask=cols < n_cols)  # expect: cuda-runtime-stride-no-hints
    tl.store(dst + row * stride_row + cols, x, mask=cols < n_cols)
