"""masked_fill with the mask inside the memory ops: load x where the mask is clear, store it
there, and store the fill value where the mask is set."""
import torch
import triton
import triton.language as tl


@triton.jit
def masked_fill_kernel(inp_ptr, mask_ptr, value, out_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    inb = offs < N
    fill = tl.load(mask_ptr + offs, mask=inb, other=0).to(tl.int1)
    cur = tl.load(inp_ptr + offs, mask=(~fill) & inb, other=0)
    tl.store(out_ptr + offs, cur, mask=(~fill) & inb)
    tl.store(out_ptr + offs, value, mask=fill & inb)


def run(x: torch.Tensor, mask: torch.Tensor, value: float) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    BLOCK = 4096
    masked_fill_kernel[(triton.cdiv(n, BLOCK),)](x, mask, value, out, n, BLOCK=BLOCK)
    return out
