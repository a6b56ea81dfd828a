"""vLLM-style rotary embedding (neox) with a cos_sin_cache; sizes and strides that vary per batch are not specialised."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rotate_heads(x_ptr, out_ptr, x_row, out_row, cos, sin, NUM_HEADS: tl.constexpr, BLOCK_H: tl.constexpr,
                  HEAD_DIM: tl.constexpr):
    HALF: tl.constexpr = HEAD_DIM // 2
    heads = tl.arange(0, BLOCK_H)[:, None]
    d = tl.arange(0, HALF)[None, :]
    m = heads < NUM_HEADS
    x1 = tl.load(x_ptr + x_row + heads * HEAD_DIM + d, mask=m, other=0.0).to(tl.float32)
    x2 = tl.load(x_ptr + x_row + heads * HEAD_DIM + HALF + d, mask=m, other=0.0).to(tl.float32)
    tl.store(out_ptr + out_row + heads * HEAD_DIM + d, (x1 * cos - x2 * sin).to(out_ptr.dtype.element_ty), mask=m)
    tl.store(out_ptr + out_row + heads * HEAD_DIM + HALF + d, (x2 * cos + x1 * sin).to(out_ptr.dtype.element_ty), mask=m)


@triton.jit(do_not_specialize=["num_tokens", "q_stride", "k_stride", "q_out_stride", "k_out_stride"])
def rotary_kernel(pos_ptr, q_ptr, k_ptr, cache_ptr, q_out_ptr, k_out_ptr, num_tokens,
                  q_stride, k_stride, q_out_stride, k_out_stride,
                  NUM_Q_HEADS: tl.constexpr, NUM_KV_HEADS: tl.constexpr, HEAD_DIM: tl.constexpr,
                  BLOCK_QH: tl.constexpr, BLOCK_KH: tl.constexpr):
    tok = tl.program_id(0)
    pos = tl.load(pos_ptr + tok)
    half = tl.arange(0, HEAD_DIM // 2)[None, :]
    cos = tl.load(cache_ptr + pos * HEAD_DIM + half)
    sin = tl.load(cache_ptr + pos * HEAD_DIM + HEAD_DIM // 2 + half)
    tok64 = tok.to(tl.int64)
    _rotate_heads(q_ptr, q_out_ptr, tok64 * q_stride, tok64 * q_out_stride, cos, sin, NUM_Q_HEADS, BLOCK_QH, HEAD_DIM)
    _rotate_heads(k_ptr, k_out_ptr, tok64 * k_stride, tok64 * k_out_stride, cos, sin, NUM_KV_HEADS, BLOCK_KH, HEAD_DIM)


def rotary_embedding(positions, query, key, cos_sin_cache, num_q_heads: int, num_kv_heads: int) -> tuple:
    """Out-of-place vLLM rotary_embedding on [T, heads * D] views (neox layout)."""
    T = query.shape[0]
    D = cos_sin_cache.shape[1]
    q_out = torch.empty((T, num_q_heads, D), dtype=query.dtype, device=query.device)
    k_out = torch.empty((T, num_kv_heads, D), dtype=key.dtype, device=key.device)
    rotary_kernel[(T,)](positions, query, key, cos_sin_cache, q_out, k_out, T,
                        query.stride(0), key.stride(0), q_out.stride(0), k_out.stride(0),
                        NUM_Q_HEADS=num_q_heads, NUM_KV_HEADS=num_kv_heads, HEAD_DIM=D,
                        BLOCK_QH=triton.next_power_of_2(num_q_heads), BLOCK_KH=triton.next_power_of_2(num_kv_heads))
    return q_out, k_out


def run(positions, qkv, cos_sin_cache, num_q_heads: int, num_kv_heads: int) -> tuple:
    D = cos_sin_cache.shape[1]
    q, k, _ = qkv.split([num_q_heads * D, num_kv_heads * D, num_kv_heads * D], dim=-1)
    return rotary_embedding(positions, q, k, cos_sin_cache, num_q_heads, num_kv_heads)
