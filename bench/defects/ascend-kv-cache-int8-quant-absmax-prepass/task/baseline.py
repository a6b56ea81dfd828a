"""Quantizing KV-cache write in triton-ascend: one pass per (token, head) row tile, K and V alike."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48


@triton.jit
def _quant_rows(x):
    amax = tl.max(tl.abs(x), axis=1)
    scale = tl.maximum(amax, 1e-8) / 127.0
    y = x / scale[:, None]
    q = tl.where(y >= 0.0, tl.floor(y + 0.5), tl.ceil(y - 0.5))
    q = tl.minimum(tl.maximum(q, -127.0), 127.0)
    return q.to(tl.int8), scale


@triton.jit
def _write_rows(src_ptr, cache_ptr, scale_ptr, rows, dst_rows, row_mask, offs_d, HEAD_DIM: tl.constexpr):
    x = tl.load(src_ptr + rows[:, None] * HEAD_DIM + offs_d[None, :], mask=row_mask[:, None], other=0.0)
    q, scale = _quant_rows(x.to(tl.float32))
    tl.store(cache_ptr + dst_rows[:, None] * HEAD_DIM + offs_d[None, :], q, mask=row_mask[:, None])
    tl.store(scale_ptr + dst_rows, scale, mask=row_mask)


@triton.jit
def quant_cache_write_kernel(k_ptr, v_ptr, slot_ptr, kc_ptr, vc_ptr, ks_ptr, vs_ptr, n_rows,
                             NUM_HEADS: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_R: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK_R
    offs_d = tl.arange(0, HEAD_DIM)
    for start in range(pid * BLOCK_R, n_rows, step):
        rows = start + tl.arange(0, BLOCK_R)
        row_mask = rows < n_rows
        slot = tl.load(slot_ptr + rows // NUM_HEADS, mask=row_mask, other=0)
        dst_rows = slot * NUM_HEADS + rows % NUM_HEADS
        _write_rows(k_ptr, kc_ptr, ks_ptr, rows, dst_rows, row_mask, offs_d, HEAD_DIM)
        _write_rows(v_ptr, vc_ptr, vs_ptr, rows, dst_rows, row_mask, offs_d, HEAD_DIM)


def run(key, value, slot_mapping, block_size):
    T, H, D = key.shape
    n_blocks = T // block_size
    k_cache = torch.empty(n_blocks, block_size, H, D, dtype=torch.int8, device=key.device)
    v_cache = torch.empty_like(k_cache)
    k_scale = torch.empty(n_blocks, block_size, H, dtype=torch.float32, device=key.device)
    v_scale = torch.empty_like(k_scale)
    n_rows = T * H
    block_r = 64
    grid = (min(NUM_VECTOR_CORES, triton.cdiv(n_rows, block_r)),)
    quant_cache_write_kernel[grid](key, value, slot_mapping, k_cache, v_cache, k_scale, v_scale, n_rows,
                                   NUM_HEADS=H, HEAD_DIM=D, BLOCK_R=block_r)
    return k_cache, v_cache, k_scale, v_scale
