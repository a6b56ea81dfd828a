# backend: ascend
import triton
import triton.language as tl


@triton.jit
def pick(x_ptr, idx_ptr, y_ptr, stride_x, M, N: tl.constexpr):
    rn = tl.arange(0, N)
    idx = tl.load(idx_ptr + rn)
    val = tl.load(x_ptr + idx * stride_x, mask=idx < M)  # expect: ascend-discrete-gather
    tl.store(y_ptr + rn, val)
