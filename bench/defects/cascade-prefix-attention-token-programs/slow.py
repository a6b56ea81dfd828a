"""Cascade attention, shared-prefix pass: each decode token's query heads of one KV group attend to
the common prefix in the paged KV cache; writes the output and its log-sum-exp."""
import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)
LN2 = tl.constexpr(0.6931471805599453)


@triton.jit
def _paged_kv_offsets(block_table_ptr, start, prefix_len, kv_head, stride_cb, stride_cp, stride_ch,
                      BLOCK_N: tl.constexpr, PAGE: tl.constexpr):
    offs_n = start + tl.arange(0, BLOCK_N)
    n_mask = offs_n < prefix_len
    block = tl.load(block_table_ptr + offs_n // PAGE, mask=n_mask, other=0)
    offs = block.to(tl.int64) * stride_cb + (offs_n % PAGE) * stride_cp + kv_head * stride_ch
    return offs, n_mask


@triton.jit
def _attend_tile(q, k, v, n_mask, m_i, l_i, acc, qk_scale):
    qk = tl.dot(q, tl.trans(k)) * qk_scale
    qk = tl.where(n_mask[None, :], qk, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(qk, 1))
    alpha = tl.exp2(m_i - m_new)
    p = tl.exp2(qk - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return m_new, l_i, acc


@triton.jit
def prefix_attention_kernel(q_ptr, k_cache_ptr, v_cache_ptr, block_table_ptr, out_ptr, lse_ptr,
                            num_tokens, prefix_len, softmax_scale,
                            stride_qt, stride_qh, stride_cb, stride_cp, stride_ch, stride_ot, stride_oh,
                            GROUP: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr,
                            PAGE: tl.constexpr, HEAD_DIM: tl.constexpr):
    tok = tl.program_id(0)
    kv_head = tl.program_id(1)
    rows = tl.arange(0, BLOCK_H)
    head = kv_head * GROUP + rows
    row_mask = rows < GROUP
    offs_d = tl.arange(0, HEAD_DIM)

    q = tl.load(q_ptr + tok * stride_qt + head[:, None] * stride_qh + offs_d[None, :],
                mask=row_mask[:, None], other=0.0)
    m_i = tl.full([BLOCK_H], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_H], tl.float32)
    acc = tl.zeros([BLOCK_H, HEAD_DIM], tl.float32)
    qk_scale = softmax_scale * LOG2E
    for start in range(0, prefix_len, BLOCK_N):
        kv_offs, n_mask = _paged_kv_offsets(block_table_ptr, start, prefix_len, kv_head,
                                            stride_cb, stride_cp, stride_ch, BLOCK_N, PAGE)
        k = tl.load(k_cache_ptr + kv_offs[:, None] + offs_d[None, :], mask=n_mask[:, None], other=0.0)
        v = tl.load(v_cache_ptr + kv_offs[:, None] + offs_d[None, :], mask=n_mask[:, None], other=0.0)
        m_i, l_i, acc = _attend_tile(q, k, v, n_mask, m_i, l_i, acc, qk_scale)

    acc = acc / l_i[:, None]
    tl.store(out_ptr + tok * stride_ot + head[:, None] * stride_oh + offs_d[None, :],
             acc.to(out_ptr.dtype.element_ty), mask=row_mask[:, None])
    tl.store(lse_ptr + head * num_tokens + tok, (m_i + tl.log2(l_i)) * LN2, mask=row_mask)


def run(query: torch.Tensor, key_cache: torch.Tensor, value_cache: torch.Tensor,
        prefix_block_table: torch.Tensor, prefix_len: int, softmax_scale: float) -> tuple:
    num_tokens, num_heads, head_dim = query.shape
    _, page, num_kv_heads, _ = key_cache.shape
    group = num_heads // num_kv_heads
    out = torch.empty_like(query)
    lse = torch.empty((num_heads, num_tokens), dtype=torch.float32, device=query.device)

    BLOCK_H = max(16, triton.next_power_of_2(group))
    config = {"BLOCK_N": 64, "num_warps": 4, "num_stages": 2}
    grid = (num_tokens, num_kv_heads)
    prefix_attention_kernel[grid](
        query, key_cache, value_cache, prefix_block_table, out, lse,
        num_tokens, prefix_len, softmax_scale,
        query.stride(0), query.stride(1), key_cache.stride(0), key_cache.stride(1), key_cache.stride(2),
        out.stride(0), out.stride(1),
        GROUP=group, BLOCK_H=BLOCK_H, PAGE=page, HEAD_DIM=head_dim, **config)
    return out, lse
