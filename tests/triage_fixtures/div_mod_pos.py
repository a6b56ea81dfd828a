# backend: cuda
import triton
import triton.language as tl


@triton.jit
def unflatten(x_ptr, y_ptr, n, W, stride_h, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    h = idx // W  # expect: cuda-div-mod-index
    w = idx % W
    x = tl.load(x_ptr + h * stride_h + w, mask=idx < n)
    tl.store(y_ptr + idx, x, mask=idx < n)
