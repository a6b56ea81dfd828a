"""where(cond, x, y): both operands loaded under the bounds mask, tl.where picks, one store."""
import torch
import triton
import triton.language as tl


@triton.jit
def where_kernel(cond_ptr, x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    in_bounds = offs < n
    c = tl.load(cond_ptr + offs, mask=in_bounds, other=0).to(tl.int1)
    x = tl.load(x_ptr + offs, mask=in_bounds, other=0.0)
    y = tl.load(y_ptr + offs, mask=in_bounds, other=0.0)
    tl.store(out_ptr + offs, tl.where(c, x, y), mask=in_bounds)


def run(cond: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    where_kernel[(triton.cdiv(n, 2048),)](cond, x, y, out, n, BLOCK=2048)
    return out
