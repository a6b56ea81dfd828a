"""masked_fill with the data mask as a select: memory ops keep only the bounds mask."""
import torch
import triton
import triton.language as tl


@triton.jit
def masked_fill_kernel(inp_ptr, mask_ptr, value, out_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    inb = offs < N
    fill = tl.load(mask_ptr + offs, mask=inb, other=0).to(tl.int1)
    cur = tl.load(inp_ptr + offs, mask=inb, other=0)
    out = tl.where(fill, value, cur).to(cur.dtype)
    tl.store(out_ptr + offs, out, mask=inb)


def run(x: torch.Tensor, mask: torch.Tensor, value: float) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    BLOCK = 4096
    masked_fill_kernel[(triton.cdiv(n, BLOCK),)](x, mask, value, out, n, BLOCK=BLOCK)
    return out
