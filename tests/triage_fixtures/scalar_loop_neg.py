# backend: cuda
# absent: cuda-scalar-element-loop
import triton
import triton.language as tl


@triton.jit
def row_norm(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    scale = tl.load(out_ptr + row)
    tl.store(out_ptr + row, tl.sum(acc, axis=0) * scale)
