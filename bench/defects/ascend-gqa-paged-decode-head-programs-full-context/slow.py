"""GQA paged decode attention for the Atlas A2 (910B): the query heads of one GQA group are the M side
of the cube matmuls, and the program streams its request's KV pages through an online softmax."""
import torch
import triton
import triton.language as tl


@triton.jit
def _load_page(cache_ptr, blk, kv_head, tok, dim, valid, stride_blk, stride_tok, stride_head):
    ptrs = cache_ptr + blk * stride_blk + tok[:, None] * stride_tok + kv_head * stride_head + dim[None, :]
    return tl.load(ptrs, mask=valid[:, None], other=0.0)


@triton.jit
def _attend_page(q, k, v, valid, m_i, l_i, acc, sm_scale):
    scores = tl.dot(q, tl.trans(k)) * sm_scale
    scores = tl.where(valid[None, :], scores, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(scores, axis=1))
    alpha = tl.exp(m_i - m_new)
    p = tl.exp(scores - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return m_new, l_i, acc


@triton.jit
def paged_decode_kernel(q_ptr, k_cache, v_cache, block_table, seq_lens, out_ptr, sm_scale,
                        stride_qb, stride_qh, stride_bt, stride_blk, stride_tok, stride_head,
                        stride_ob, stride_oh,
                        GROUP: tl.constexpr, BLOCK_H: tl.constexpr, HEAD_DIM: tl.constexpr,
                        PAGE: tl.constexpr):
    b = tl.program_id(0)
    kv_head = tl.program_id(1)
    seq_len = tl.load(seq_lens + b)
    heads = tl.arange(0, BLOCK_H)
    head_mask = heads < GROUP
    dim = tl.arange(0, HEAD_DIM)
    tok = tl.arange(0, PAGE)
    q_rows = kv_head * GROUP + heads
    q = tl.load(q_ptr + b * stride_qb + q_rows[:, None] * stride_qh + dim[None, :],
                mask=head_mask[:, None], other=0.0)

    m_i = tl.full([BLOCK_H], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, HEAD_DIM], dtype=tl.float32)
    num_pages = tl.cdiv(seq_len, PAGE)
    for p in range(0, num_pages):
        blk = tl.load(block_table + b * stride_bt + p)
        valid = p * PAGE + tok < seq_len
        k = _load_page(k_cache, blk, kv_head, tok, dim, valid, stride_blk, stride_tok, stride_head)
        v = _load_page(v_cache, blk, kv_head, tok, dim, valid, stride_blk, stride_tok, stride_head)
        m_i, l_i, acc = _attend_page(q, k, v, valid, m_i, l_i, acc, sm_scale)

    out = acc / l_i[:, None]
    tl.store(out_ptr + b * stride_ob + q_rows[:, None] * stride_oh + dim[None, :],
             out.to(out_ptr.dtype.element_ty), mask=head_mask[:, None])


def run(q: torch.Tensor, k_cache: torch.Tensor, v_cache: torch.Tensor, block_table: torch.Tensor,
        seq_lens: torch.Tensor, sm_scale: float) -> torch.Tensor:
    batch, num_heads, head_dim = q.shape
    page, num_kv_heads = k_cache.shape[1], k_cache.shape[2]
    group = num_heads // num_kv_heads
    out = torch.empty_like(q)
    block_h = max(16, triton.next_power_of_2(group))
    grid = (batch, num_kv_heads)
    paged_decode_kernel[grid](
        q, k_cache, v_cache, block_table, seq_lens, out, sm_scale,
        q.stride(0), q.stride(1), block_table.stride(0),
        k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        out.stride(0), out.stride(1),
        GROUP=group, BLOCK_H=block_h, HEAD_DIM=head_dim, PAGE=page,
    )
    return out
