# backend: ascend
import triton
import triton.language as tl


@triton.jit
def bincount_kernel(ids_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    idx = tl.load(ids_ptr + offs, mask=m, other=0)
    tl.atomic_add(counts_ptr + idx, 1, mask=m)  # expect: common-scatter-atomics
