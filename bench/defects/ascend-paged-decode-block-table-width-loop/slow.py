"""Paged GQA decode attention (vLLM-Ascend decode path) in triton-ascend: grid (sequence, kv head), the
kv head's query group as one padded tile against each KV block of the sequence."""
import torch
import triton
import triton.language as tl


@triton.jit
def _load_kv_block(cache_ptr, block_id, kv_head, s_blk, s_tok, s_head, offs_t, offs_d, tok_mask):
    ptrs = cache_ptr + block_id * s_blk + offs_t[:, None] * s_tok + kv_head * s_head + offs_d[None, :]
    return tl.load(ptrs, mask=tok_mask[:, None], other=0.0)


@triton.jit
def paged_decode_kernel(q_ptr, k_ptr, v_ptr, bt_ptr, lens_ptr, out_ptr, scale,
                        s_qb, s_qh, s_blk, s_tok, s_head, s_bt, s_ob, s_oh, max_blocks,
                        GROUP: tl.constexpr, BLOCK_G: tl.constexpr, HEAD_DIM: tl.constexpr,
                        BLOCK_SIZE: tl.constexpr):
    seq = tl.program_id(0)
    kv_head = tl.program_id(1)
    offs_g = tl.arange(0, BLOCK_G)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_t = tl.arange(0, BLOCK_SIZE)
    g_mask = offs_g < GROUP
    heads = kv_head * GROUP + offs_g
    q = tl.load(q_ptr + seq * s_qb + heads[:, None] * s_qh + offs_d[None, :], mask=g_mask[:, None], other=0.0)
    seq_len = tl.load(lens_ptr + seq)
    m_i = tl.full([BLOCK_G], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_G], dtype=tl.float32)
    acc = tl.zeros([BLOCK_G, HEAD_DIM], dtype=tl.float32)
    for j in range(0, max_blocks):
        block_id = tl.load(bt_ptr + seq * s_bt + j)
        tok = j * BLOCK_SIZE + offs_t
        tok_mask = tok < seq_len
        k = _load_kv_block(k_ptr, block_id, kv_head, s_blk, s_tok, s_head, offs_t, offs_d, tok_mask)
        v = _load_kv_block(v_ptr, block_id, kv_head, s_blk, s_tok, s_head, offs_t, offs_d, tok_mask)
        s = tl.dot(q, tl.trans(k)) * scale
        s = tl.where(tok_mask[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(out_ptr + seq * s_ob + heads[:, None] * s_oh + offs_d[None, :], acc.to(out_ptr.dtype.element_ty),
             mask=g_mask[:, None])


def run(q, k_cache, v_cache, block_tables, seq_lens, scale):
    B, Hq, D = q.shape
    block_size, Hkv = k_cache.shape[1], k_cache.shape[2]
    group = Hq // Hkv
    out = torch.empty_like(q)
    block_g = max(16, triton.next_power_of_2(group))
    grid = (B, Hkv)
    paged_decode_kernel[grid](q, k_cache, v_cache, block_tables, seq_lens, out, scale,
                              q.stride(0), q.stride(1), k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
                              block_tables.stride(0), out.stride(0), out.stride(1), block_tables.shape[1],
                              GROUP=group, BLOCK_G=block_g, HEAD_DIM=D, BLOCK_SIZE=block_size)
    return out
