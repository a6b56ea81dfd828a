"""MLA KV-cache write: a flat elementwise kernel over T * (kv_lora_rank + rope_dim) cache elements."""
import torch
import triton
import triton.language as tl


@triton.jit
def concat_and_cache_mla_kernel(kv_c_ptr, k_pe_ptr, slot_ptr, cache_ptr, n_elements,
                                LORA, ROPE, ENTRY, block_size, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    token = offs // ENTRY
    col = offs % ENTRY
    slot = tl.load(slot_ptr + token, mask=mask, other=0)
    block_idx = slot // block_size
    block_off = slot % block_size
    is_latent = col < LORA
    c = tl.load(kv_c_ptr + token * LORA + col, mask=mask & is_latent, other=0.0)
    r = tl.load(k_pe_ptr + token * ROPE + (col - LORA), mask=mask & (col >= LORA), other=0.0)
    dst = block_idx * (block_size * ENTRY) + block_off * ENTRY + col
    tl.store(cache_ptr + dst, tl.where(is_latent, c, r), mask=mask)


def run(kv_c: torch.Tensor, k_pe: torch.Tensor, slot_mapping: torch.Tensor, block_size: int) -> torch.Tensor:
    T, lora = kv_c.shape
    rope = k_pe.shape[1]
    entry = lora + rope
    cache = torch.empty((T // block_size, block_size, entry), dtype=kv_c.dtype, device=kv_c.device)
    n = T * entry
    BLOCK = 1024
    concat_and_cache_mla_kernel[(triton.cdiv(n, BLOCK),)](kv_c, k_pe, slot_mapping, cache, n,
                                                          lora, rope, entry, block_size, BLOCK=BLOCK)
    return cache
