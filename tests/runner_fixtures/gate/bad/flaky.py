"""Gate fixture (vecadd): right on the first call of every three, off by one ulp-sized nudge on the
others, like a race that only sometimes loses an update (a stand-in for the GPU split-K race)."""
import torch
import triton
import triton.language as tl

CALLS = [0]


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, nudge, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask) + nudge, mask=mask)


def run(x, y):
    CALLS[0] += 1
    out = torch.empty_like(x)
    nudge = 0.0 if CALLS[0] % 3 == 1 else 0.5
    add_kernel[(triton.cdiv(x.numel(), 256),)](x, y, out, x.numel(), nudge, BLOCK=256)
    return out
