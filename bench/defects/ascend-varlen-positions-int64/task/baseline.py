"""Baseline for the local varlen_positions task: int32 positions per chunk, widened at the store."""
import torch
import triton
import triton.language as tl


@triton.jit
def positions_kernel(cu_ptr, pos_ptr, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    start = tl.load(cu_ptr + b)
    n = tl.load(cu_ptr + b + 1) - start
    for s in range(0, n, BLOCK):
        local = s + tl.arange(0, BLOCK)
        tl.store(pos_ptr + start + local, local.to(tl.int64), mask=local < n)


def run(cu_seqlens: torch.Tensor, total: int) -> torch.Tensor:
    B = cu_seqlens.numel() - 1
    pos = torch.empty(total, dtype=torch.int64, device=cu_seqlens.device)
    positions_kernel[(B,)](cu_seqlens, pos, BLOCK=4096)
    return pos
