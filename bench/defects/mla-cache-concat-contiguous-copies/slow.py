"""MLA cache write in the style of a vLLM ops module: the kernel assumes packed kv_c / k_pe rows, so the wrapper makes them contiguous."""
import torch
import triton
import triton.language as tl


@triton.jit
def concat_and_cache_mla_kernel(kv_c_ptr, k_pe_ptr, cache_ptr, slot_ptr, R: tl.constexpr, P: tl.constexpr):
    tok = tl.program_id(0)
    slot = tl.load(slot_ptr + tok)
    dst = cache_ptr + slot * (R + P)
    r = tl.arange(0, R)
    p = tl.arange(0, P)
    tl.store(dst + r, tl.load(kv_c_ptr + tok * R + r))
    tl.store(dst + R + p, tl.load(k_pe_ptr + tok * P + p))


def concat_and_cache_mla(kv_c: torch.Tensor, k_pe: torch.Tensor, kv_cache: torch.Tensor,
                         slot_mapping: torch.Tensor) -> None:
    """ops.concat_and_cache_mla: kv_cache[slot] = cat(kv_c, k_pe) per token."""
    kv_c = kv_c.contiguous()
    k_pe = k_pe.contiguous()
    concat_and_cache_mla_kernel[(kv_c.shape[0],)](kv_c, k_pe, kv_cache, slot_mapping, R=kv_c.shape[1], P=k_pe.shape[1])


def run(kv_c: torch.Tensor, k_pe: torch.Tensor, slot_mapping: torch.Tensor, num_blocks: int) -> torch.Tensor:
    T, R = kv_c.shape
    P = k_pe.shape[1]
    kv_cache = torch.empty((num_blocks, T // num_blocks, R + P), dtype=kv_c.dtype, device=kv_c.device)
    concat_and_cache_mla(kv_c, k_pe, kv_cache, slot_mapping)
    return kv_cache
