"""masked_select by stream compaction: block counts, then each compaction program adds up the counts before it."""
import torch
import triton
import triton.language as tl


@triton.jit
def block_counts_kernel(mask_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = tl.load(mask_ptr + offs, mask=offs < n, other=0).to(tl.int32)
    tl.store(counts_ptr + tl.program_id(0), tl.sum(keep, axis=0))


@triton.jit
def total_kernel(counts_ptr, total_ptr, n_blocks, BLOCK_B: tl.constexpr):
    acc = tl.zeros((BLOCK_B,), dtype=tl.int32)
    for start in range(0, n_blocks, BLOCK_B):
        b = start + tl.arange(0, BLOCK_B)
        acc += tl.load(counts_ptr + b, mask=b < n_blocks, other=0)
    tl.store(total_ptr, tl.sum(acc, axis=0))


@triton.jit
def _blocks_before(counts_ptr, pid, BLOCK_B: tl.constexpr):
    acc = tl.zeros((BLOCK_B,), dtype=tl.int32)
    for start in range(0, pid, BLOCK_B):
        b = start + tl.arange(0, BLOCK_B)
        acc += tl.load(counts_ptr + b, mask=b < pid, other=0)
    return tl.sum(acc, axis=0)


@triton.jit
def compact_kernel(x_ptr, mask_ptr, counts_ptr, out_ptr, n, BLOCK: tl.constexpr, BLOCK_B: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = tl.load(mask_ptr + offs, mask=offs < n, other=0).to(tl.int32)
    start = _blocks_before(counts_ptr, tl.program_id(0), BLOCK_B)
    pos = start + tl.cumsum(keep, axis=0) - 1
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + pos, x, mask=keep != 0)


def run(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    block = 1024
    n_blocks = triton.cdiv(n, block)
    counts = torch.empty(n_blocks, dtype=torch.int32, device=x.device)
    total = torch.empty(1, dtype=torch.int32, device=x.device)
    block_counts_kernel[(n_blocks,)](mask, counts, n, BLOCK=block)
    total_kernel[(1,)](counts, total, n_blocks, BLOCK_B=1024)
    out = torch.empty(int(total.item()), dtype=x.dtype, device=x.device)
    compact_kernel[(n_blocks,)](x, mask, counts, out, n, BLOCK=block, BLOCK_B=1024)
    return out
