# backend: cuda
# absent: cuda-clamped-index
import triton
import triton.language as tl


@triton.jit
def row_max(x_ptr, out_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK: tl.constexpr):
    # the clamp is on the row index (scaled by its stride), the contiguous axis is masked
    rows = tl.minimum(tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M), M - 1)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=cols[None, :] < N, other=0.0)
    last = tl.minimum(N, BLOCK)  # a clamp of two scalars: no index tile
    out_rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(out_ptr + out_rows, tl.max(x, axis=1) + last, mask=out_rows < M)
