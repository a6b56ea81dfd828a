"""Gate fixture (vecadd): remembers its answer per input buffer address and replays it on the next call
(the inputs are kept alive in the cache, so fresh inputs never reuse an address)."""
import torch
import triton
import triton.language as tl

CACHE = {}


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def run(x, y):
    key = (x.data_ptr(), y.data_ptr())
    if key not in CACHE:
        out = torch.empty_like(x)
        add_kernel[(triton.cdiv(x.numel(), 256),)](x, y, out, x.numel(), BLOCK=256)
        CACHE[key] = (x, y, out)
    return CACHE[key][2]
