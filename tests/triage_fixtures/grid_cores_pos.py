# backend: ascend
import torch
import triton
import triton.language as tl


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=offs < n), mask=offs < n)


def run(x, y):
    out = torch.empty_like(x)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
    add[grid](x, y, out, n, BLOCK=1024)  # expect: ascend-grid-exceeds-cores
    add[(4096,)](x, y, out, n, BLOCK=1024)  # expect: ascend-grid-exceeds-cores
    return out
