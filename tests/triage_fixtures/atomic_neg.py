# backend: cuda
# absent: cuda-atomic-reduction
import triton
import triton.language as tl


@triton.jit
def histogram_scatter(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr + offs, x, mask=offs < n)
    tl.store(out_ptr + tl.program_id(0), tl.sum(x, axis=0))
