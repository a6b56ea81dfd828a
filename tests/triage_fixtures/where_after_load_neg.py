# backend: cuda
# absent: common-redundant-select
import triton
import triton.language as tl


@triton.jit
def relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x = tl.where(x > 0, x, 0.0)
    y = tl.load(y_ptr + offs, mask=mask)
    y = tl.where(mask, y, 1.0)
    tl.store(y_ptr + offs, x + y, mask=mask)
