"""where(cond, x, y): each operand is read only where it is selected and written under its own data mask."""
import torch
import triton
import triton.language as tl


@triton.jit
def where_kernel(cond_ptr, x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    in_bounds = offs < n
    c = tl.load(cond_ptr + offs, mask=in_bounds, other=0).to(tl.int1)
    take_x = c & in_bounds
    take_y = (c == 0) & in_bounds
    # read x only where it is selected and y only where it is selected
    x = tl.load(x_ptr + offs, mask=take_x, other=0.0)
    tl.store(out_ptr + offs, x, mask=take_x)
    y = tl.load(y_ptr + offs, mask=take_y, other=0.0)
    tl.store(out_ptr + offs, y, mask=take_y)


def run(cond: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    where_kernel[(triton.cdiv(n, 2048),)](cond, x, y, out, n, BLOCK=2048)
    return out
