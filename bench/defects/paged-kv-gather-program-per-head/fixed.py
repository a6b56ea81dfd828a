"""Paged KV-cache gather with one program per (sequence, token) copying all heads at once."""
import torch
import triton
import triton.language as tl


@triton.jit
def paged_gather_kernel(cache_ptr, table_ptr, out_ptr, S, BLOCK_SIZE, MAX_BLOCKS, HD,
                        BLOCK: tl.constexpr):
    seq = tl.program_id(0)
    pos = tl.program_id(1)
    phys = tl.load(table_ptr + seq * MAX_BLOCKS + pos // BLOCK_SIZE)
    src = cache_ptr + (phys.to(tl.int64) * BLOCK_SIZE + pos % BLOCK_SIZE) * HD
    cols = tl.arange(0, BLOCK)
    vals = tl.load(src + cols, mask=cols < HD)
    tl.store(out_ptr + (seq * S + pos).to(tl.int64) * HD + cols, vals, mask=cols < HD)


def run(cache: torch.Tensor, block_table: torch.Tensor) -> torch.Tensor:
    _, block_size, H, D = cache.shape
    B, max_blocks = block_table.shape
    S = max_blocks * block_size
    out = torch.empty((B, S, H, D), dtype=cache.dtype, device=cache.device)
    paged_gather_kernel[(B, S)](cache, block_table, out, S, block_size, max_blocks, H * D,
                                BLOCK=triton.next_power_of_2(H * D))
    return out
