"""Gate fixture (vecadd): right whenever it is called on its own, but when called back to back (a
timing loop) it stops launching the kernel and returns a fresh, unwritten tensor: fast and wrong."""
import time

import torch
import triton
import triton.language as tl

STATE = {"last_return": 0.0, "lazy": False}


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def run(x, y):
    gap = time.perf_counter() - STATE["last_return"]
    STATE["lazy"] = gap < 1e-4 or (STATE["lazy"] and gap < 0.1)
    out = torch.empty_like(x)
    if not STATE["lazy"]:
        add_kernel[(triton.cdiv(x.numel(), 256),)](x, y, out, x.numel(), BLOCK=256)
    STATE["last_return"] = time.perf_counter()
    return out
