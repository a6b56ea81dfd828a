# backend: ascend
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * N + cols, mask=cols < N, other=0.0)
    y = tl.cumsum(x, axis=0)  # expect: ascend-scan-last-axis
    tl.store(out_ptr + tl.program_id(0) * N + cols, y, mask=cols < N)
