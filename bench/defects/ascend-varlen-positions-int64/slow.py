"""Varlen position ids with the token index kept in int64 throughout (to be safe from overflow):
the index tile and the subtraction are int64 vectors."""
import torch
import triton
import triton.language as tl


@triton.jit
def positions_kernel(cu_ptr, pos_ptr, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    start = tl.load(cu_ptr + b).to(tl.int64)
    end = tl.load(cu_ptr + b + 1).to(tl.int64)
    for s in range(start, end, BLOCK):
        offs = s + tl.arange(0, BLOCK).to(tl.int64)
        tl.store(pos_ptr + offs, offs - start, mask=offs < end)


def run(cu_seqlens: torch.Tensor, total: int) -> torch.Tensor:
    B = cu_seqlens.numel() - 1
    pos = torch.empty(total, dtype=torch.int64, device=cu_seqlens.device)
    positions_kernel[(B,)](cu_seqlens, pos, BLOCK=4096)
    return pos
