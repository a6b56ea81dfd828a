"""masked_select by stream compaction: block counts, one exclusive scan of the counts, then a compaction launch."""
import torch
import triton
import triton.language as tl


@triton.jit
def block_counts_kernel(mask_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = tl.load(mask_ptr + offs, mask=offs < n, other=0).to(tl.int32)
    tl.store(counts_ptr + tl.program_id(0), tl.sum(keep, axis=0))


@triton.jit
def block_offsets_kernel(counts_ptr, offsets_ptr, total_ptr, n_blocks, BLOCK_B: tl.constexpr):
    b = tl.arange(0, BLOCK_B)
    counts = tl.load(counts_ptr + b, mask=b < n_blocks, other=0)
    inclusive = tl.cumsum(counts, axis=0)
    tl.store(offsets_ptr + b, inclusive - counts, mask=b < n_blocks)
    tl.store(total_ptr, tl.sum(counts, axis=0))


@triton.jit
def compact_kernel(x_ptr, mask_ptr, offsets_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = tl.load(mask_ptr + offs, mask=offs < n, other=0).to(tl.int32)
    start = tl.load(offsets_ptr + tl.program_id(0))
    pos = start + tl.cumsum(keep, axis=0) - 1
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + pos, x, mask=keep != 0)


def run(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    block = 1024
    n_blocks = triton.cdiv(n, block)
    counts = torch.empty(n_blocks, dtype=torch.int32, device=x.device)
    offsets = torch.empty(n_blocks, dtype=torch.int32, device=x.device)
    total = torch.empty(1, dtype=torch.int32, device=x.device)
    block_counts_kernel[(n_blocks,)](mask, counts, n, BLOCK=block)
    block_offsets_kernel[(1,)](counts, offsets, total, n_blocks, BLOCK_B=triton.next_power_of_2(n_blocks), num_warps=16)
    out = torch.empty(int(total.item()), dtype=x.dtype, device=x.device)
    compact_kernel[(n_blocks,)](x, mask, offsets, out, n, BLOCK=block)
    return out
