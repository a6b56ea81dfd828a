"""MLA KV-cache write: one program per token, two contiguous row copies into cache + slot * entry."""
import torch
import triton
import triton.language as tl


@triton.jit
def concat_and_cache_mla_kernel(kv_c_ptr, k_pe_ptr, slot_ptr, cache_ptr,
                                LORA: tl.constexpr, ROPE: tl.constexpr):
    token = tl.program_id(0)
    slot = tl.load(slot_ptr + token)
    # the cache is contiguous [blocks, block_size, entry]: (slot // bs) * bs * entry + (slot % bs) * entry
    dst = cache_ptr + slot * (LORA + ROPE)
    c_cols = tl.arange(0, LORA)
    tl.store(dst + c_cols, tl.load(kv_c_ptr + token * LORA + c_cols))
    r_cols = tl.arange(0, ROPE)
    tl.store(dst + LORA + r_cols, tl.load(k_pe_ptr + token * ROPE + r_cols))


def run(kv_c: torch.Tensor, k_pe: torch.Tensor, slot_mapping: torch.Tensor, block_size: int) -> torch.Tensor:
    T, lora = kv_c.shape
    rope = k_pe.shape[1]
    cache = torch.empty((T // block_size, block_size, lora + rope), dtype=kv_c.dtype, device=kv_c.device)
    concat_and_cache_mla_kernel[(T,)](kv_c, k_pe, slot_mapping, cache, LORA=lora, ROPE=rope, num_warps=4)
    return cache
