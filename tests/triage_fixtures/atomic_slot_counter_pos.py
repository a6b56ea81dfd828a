# backend: cuda
import triton
import triton.language as tl


@triton.jit
def compact_kernel(x_ptr, count_ptr, out_ptr, idx_ptr, n, cap, BLOCK: tl.constexpr):
    # stream compaction ported from `i = atomicAdd(count, 1); out[i] = x`: a slot per lane
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    keep = (offs < n) & (x > 0.0)
    slot = tl.atomic_add(count_ptr + tl.zeros([BLOCK], dtype=tl.int32), 1, mask=keep)  # expect: common-atomic-slot-counter
    tl.store(out_ptr + slot, x, mask=keep & (slot < cap))
    tl.store(idx_ptr + slot, offs, mask=keep & (slot < cap))
