# backend: ascend
# absent: common-scatter-atomics
import triton
import triton.language as tl


@triton.jit
def bincount_kernel(ids_ptr, counts_ptr, n, BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    idx = tl.load(ids_ptr + offs, mask=m, other=BINS)
    hist = tl.histogram(idx, BINS + 1)
    bins = tl.arange(0, BINS + 1)
    tl.atomic_add(counts_ptr + bins, hist, mask=bins < BINS)
