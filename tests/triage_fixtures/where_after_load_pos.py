# backend: cuda
import triton
import triton.language as tl


@triton.jit
def relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x = tl.where(mask, x, 0)  # expect: common-redundant-select
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)
