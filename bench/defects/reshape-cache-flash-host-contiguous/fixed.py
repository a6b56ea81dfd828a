"""reshape_and_cache_flash: one program per token reads its key and value straight from the qkv projection output through the row stride."""
import torch
import triton
import triton.language as tl


@triton.jit
def reshape_and_cache_kernel(key_ptr, value_ptr, key_cache_ptr, value_cache_ptr, slot_ptr,
                             key_stride, value_stride, block_stride, page_stride, block_size,
                             ROW: tl.constexpr):
    t = tl.program_id(0)
    slot = tl.load(slot_ptr + t)
    if slot < 0:  # padding token
        return
    block = slot // block_size
    offset = slot % block_size
    cols = tl.arange(0, ROW)
    k = tl.load(key_ptr + t * key_stride + cols)
    v = tl.load(value_ptr + t * value_stride + cols)
    dst = block * block_stride + offset * page_stride + cols
    tl.store(key_cache_ptr + dst, k)
    tl.store(value_cache_ptr + dst, v)


def run(qkv: torch.Tensor, hq: int, hkv: int, d: int, bs: int, slots: torch.Tensor):
    t = qkv.shape[0]
    key = qkv[:, hq * d:(hq + hkv) * d]
    value = qkv[:, (hq + hkv) * d:]
    key_cache = torch.empty((t // bs, bs, hkv, d), dtype=qkv.dtype, device=qkv.device)
    value_cache = torch.empty_like(key_cache)
    reshape_and_cache_kernel[(t,)](key, value, key_cache, value_cache, slots,
                                   key.stride(0), value.stride(0), key_cache.stride(0), key_cache.stride(1), bs,
                                   ROW=hkv * d)
    return key_cache, value_cache
