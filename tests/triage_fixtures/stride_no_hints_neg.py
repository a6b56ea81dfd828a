# backend: cuda
# absent: cuda-runtime-stride-no-hints
import triton
import triton.language as tl


@triton.jit
def copy2d(src, dst, stride_row, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.max_contiguous(tl.multiple_of(tl.arange(0, BLOCK), BLOCK), BLOCK)
    base = tl.multiple_of(row * stride_row, 16)
    x = tl.load(src + base + cols, mask=cols < n_cols)
    tl.store(dst + base + cols, x, mask=cols < n_cols)
