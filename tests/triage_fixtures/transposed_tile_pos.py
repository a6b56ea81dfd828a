# backend: ascend
import triton
import triton.language as tl


@triton.jit
def colsum_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.arange(0, BM)
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    t = tl.load(x_ptr + rows[:, None] + cols[None, :] * M)  # expect: ascend-transposed-tile
    tl.store(out_ptr + cols, tl.sum(t, axis=0))
