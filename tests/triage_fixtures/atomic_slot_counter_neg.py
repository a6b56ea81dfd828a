# backend: cuda
# absent: common-atomic-slot-counter
import triton
import triton.language as tl


@triton.jit
def compact_kernel(x_ptr, count_ptr, out_ptr, n, cap, BLOCK: tl.constexpr):
    # the slots reserved once per program (a count and a prefix sum), and a histogram whose
    # returned old values are never read: neither takes a slot per lane from one counter
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    keep = ((offs < n) & (x > 0.0)).to(tl.int32)
    base = tl.atomic_add(count_ptr, tl.sum(keep, axis=0))
    slot = base + tl.cumsum(keep, axis=0) - keep
    tl.store(out_ptr + slot, x, mask=(keep > 0) & (slot < cap))
    old = tl.atomic_add(count_ptr + 1 + (x * 4).to(tl.int32) % 8, 1, mask=offs < n)  # noqa: F841
