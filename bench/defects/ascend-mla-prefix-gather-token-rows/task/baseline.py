"""vLLM gather_cache for the MLA latent cache on triton-ascend: programs over (request, split);
each split copies every n_splits-th cache block of its request, 32 token rows at a time."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _copy_rows(src, dst, rows, row_mask, ENTRY: tl.constexpr, LORA: tl.constexpr, ROPE: tl.constexpr):
    lo = tl.arange(0, LORA)
    pe = LORA + tl.arange(0, ROPE)
    m = row_mask[:, None]
    kv_c = tl.load(src + rows[:, None] * ENTRY + lo[None, :], mask=m)
    k_pe = tl.load(src + rows[:, None] * ENTRY + pe[None, :], mask=m)
    tl.store(dst + rows[:, None] * ENTRY + lo[None, :], kv_c, mask=m)
    tl.store(dst + rows[:, None] * ENTRY + pe[None, :], k_pe, mask=m)


@triton.jit
def gather_cache_kernel(cache_ptr, block_table_ptr, cu_ptr, out_ptr, bt_stride, n_splits,
                        BS: tl.constexpr, LORA: tl.constexpr, ROPE: tl.constexpr, BLOCK_T: tl.constexpr):
    b = tl.program_id(0)
    split = tl.program_id(1)
    ENTRY: tl.constexpr = LORA + ROPE
    seq_start = tl.load(cu_ptr + b)
    seq_len = tl.load(cu_ptr + b + 1) - seq_start
    n_blocks = (seq_len + BS - 1) // BS
    for blk in range(split, n_blocks, n_splits):
        phys = tl.load(block_table_ptr + b * bt_stride + blk)
        src = cache_ptr + phys * (BS * ENTRY)
        dst = out_ptr + (seq_start + blk * BS) * ENTRY
        n_tok = tl.minimum(seq_len - blk * BS, BS)
        for t0 in range(0, BS, BLOCK_T):
            rows = t0 + tl.arange(0, BLOCK_T)
            _copy_rows(src, dst, rows, rows < n_tok, ENTRY, LORA, ROPE)


def run(cache: torch.Tensor, block_table: torch.Tensor, cu_seq_lens: torch.Tensor, total_tokens: int) -> torch.Tensor:
    _, bs, entry = cache.shape
    n_req = block_table.shape[0]
    out = torch.empty((total_tokens, entry), dtype=cache.dtype, device=cache.device)
    lora, rope = 512, entry - 512
    n_splits = triton.cdiv(NUM_VECTOR_CORES, n_req)
    grid = (n_req, n_splits)
    gather_cache_kernel[grid](cache, block_table, cu_seq_lens, out, block_table.stride(0), n_splits,
                              BS=bs, LORA=lora, ROPE=rope, BLOCK_T=32)
    return out
