"""Paged KV-cache gather with one program per (sequence, token, head)."""
import torch
import triton
import triton.language as tl


@triton.jit
def paged_gather_kernel(cache_ptr, table_ptr, out_ptr, S, H, BLOCK_SIZE, MAX_BLOCKS, D,
                        BLOCK_D: tl.constexpr):
    seq = tl.program_id(0)
    pos = tl.program_id(1)
    head = tl.program_id(2)
    phys = tl.load(table_ptr + seq * MAX_BLOCKS + pos // BLOCK_SIZE)
    src = cache_ptr + ((phys.to(tl.int64) * BLOCK_SIZE + pos % BLOCK_SIZE) * H + head) * D
    dst = out_ptr + ((seq * S + pos).to(tl.int64) * H + head) * D
    cols = tl.arange(0, BLOCK_D)
    tl.store(dst + cols, tl.load(src + cols, mask=cols < D), mask=cols < D)


def run(cache: torch.Tensor, block_table: torch.Tensor) -> torch.Tensor:
    _, block_size, H, D = cache.shape
    B, max_blocks = block_table.shape
    S = max_blocks * block_size
    out = torch.empty((B, S, H, D), dtype=cache.dtype, device=cache.device)
    paged_gather_kernel[(B, S, H)](cache, block_table, out, S, H, block_size, max_blocks, D,
                                   BLOCK_D=triton.next_power_of_2(D))
    return out
