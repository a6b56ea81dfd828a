# backend: cuda
import triton
import triton.language as tl


@triton.jit
def count_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # a CUDA `atomicAdd(count, 1)` port: a tile of one repeated address is still one counter
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    hit = tl.load(x_ptr + offs, mask=offs < n, other=0.0) != 0
    tl.atomic_add(out_ptr + offs * 0, tl.full((BLOCK,), 1, dtype=tl.int32), mask=hit)  # expect: cuda-atomic-reduction
