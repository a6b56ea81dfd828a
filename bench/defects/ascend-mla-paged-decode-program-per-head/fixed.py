"""MLA paged decode attention for triton-ascend (Atlas A2), split-KV in two launches: stage 1 streams each
split's latent pages through an online softmax, stage 2 merges the splits by their log-sum-exp."""
import torch
import triton
import triton.language as tl

NUM_KV_SPLITS = 8
BLOCK_N = 32      # tokens per sub-tile: [32, 576] fp16 latent rows, 36 KB
BLOCK_H = 16      # one cube fractal of query heads


@triton.jit
def _split_pages(seq_len, split, PAGE: tl.constexpr, NUM_SPLITS: tl.constexpr):
    num_pages = tl.cdiv(seq_len, PAGE)
    per_split = tl.cdiv(num_pages, NUM_SPLITS)
    start = split * per_split
    return start, tl.minimum(start + per_split, num_pages)


@triton.jit
def _load_rows(cache_ptr, blk, tok, valid, cols, PAGE: tl.constexpr, D_ROW: tl.constexpr):
    ptrs = cache_ptr + blk * (PAGE * D_ROW) + tok[:, None] * D_ROW + cols[None, :]
    return tl.load(ptrs, mask=valid[:, None], other=0.0)


@triton.jit
def mla_decode_stage1(q_ptr, cache_ptr, block_table, seq_lens, o_part, lse_part, sm_scale, num_heads,
                      stride_qb, stride_qh, stride_bt, stride_ob, stride_oh, stride_os,
                      stride_lb, stride_lh,
                      DL: tl.constexpr, DR: tl.constexpr, PAGE: tl.constexpr, BLOCK_H: tl.constexpr,
                      BLOCK_N: tl.constexpr, NUM_SPLITS: tl.constexpr):
    b = tl.program_id(0)
    hb = tl.program_id(1)
    split = tl.program_id(2)
    seq_len = tl.load(seq_lens + b)
    p_start, p_end = _split_pages(seq_len, split, PAGE, NUM_SPLITS)

    heads = hb * BLOCK_H + tl.arange(0, BLOCK_H)
    h_mask = heads < num_heads
    d_lat = tl.arange(0, DL)
    d_pe = DL + tl.arange(0, DR)
    q_rows = q_ptr + b * stride_qb + heads[:, None] * stride_qh
    q_lat = tl.load(q_rows + d_lat[None, :], mask=h_mask[:, None], other=0.0)
    q_pe = tl.load(q_rows + d_pe[None, :], mask=h_mask[:, None], other=0.0)

    m_i = tl.full([BLOCK_H], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, DL], dtype=tl.float32)
    for p in range(p_start, p_end):
        blk = tl.load(block_table + b * stride_bt + p)
        for t0 in range(0, PAGE, BLOCK_N):
            tok = t0 + tl.arange(0, BLOCK_N)
            valid = p * PAGE + tok < seq_len
            c_kv = _load_rows(cache_ptr, blk, tok, valid, d_lat, PAGE, DL + DR)
            k_pe = _load_rows(cache_ptr, blk, tok, valid, d_pe, PAGE, DL + DR)
            s = tl.dot(q_lat, tl.trans(c_kv)) + tl.dot(q_pe, tl.trans(k_pe))
            s = tl.where(valid[None, :], s * sm_scale, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, axis=1))
            alpha = tl.exp(m_i - m_new)
            prob = tl.exp(s - m_new[:, None])
            l_i = l_i * alpha + tl.sum(prob, axis=1)
            acc = acc * alpha[:, None] + tl.dot(prob.to(c_kv.dtype), c_kv)
            m_i = m_new

    if p_end > p_start:
        o_ptrs = o_part + b * stride_ob + heads[:, None] * stride_oh + split * stride_os + d_lat[None, :]
        tl.store(o_ptrs, acc / l_i[:, None], mask=h_mask[:, None])
        tl.store(lse_part + b * stride_lb + heads * stride_lh + split, m_i + tl.log(l_i), mask=h_mask)


@triton.jit
def mla_decode_stage2(o_part, lse_part, seq_lens, out_ptr, num_heads,
                      stride_ob, stride_oh, stride_os, stride_lb, stride_lh, stride_yb, stride_yh,
                      DL: tl.constexpr, PAGE: tl.constexpr, BLOCK_H: tl.constexpr, NUM_SPLITS: tl.constexpr):
    b = tl.program_id(0)
    hb = tl.program_id(1)
    seq_len = tl.load(seq_lens + b)
    heads = hb * BLOCK_H + tl.arange(0, BLOCK_H)
    h_mask = heads < num_heads
    d_lat = tl.arange(0, DL)
    m_i = tl.full([BLOCK_H], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, DL], dtype=tl.float32)
    for split in range(NUM_SPLITS):
        p_start, p_end = _split_pages(seq_len, split, PAGE, NUM_SPLITS)
        if p_end > p_start:
            lse = tl.load(lse_part + b * stride_lb + heads * stride_lh + split, mask=h_mask, other=0.0)
            o = tl.load(o_part + b * stride_ob + heads[:, None] * stride_oh + split * stride_os + d_lat[None, :],
                        mask=h_mask[:, None], other=0.0)
            m_new = tl.maximum(m_i, lse)
            alpha = tl.exp(m_i - m_new)
            w = tl.exp(lse - m_new)
            acc = acc * alpha[:, None] + o * w[:, None]
            l_i = l_i * alpha + w
            m_i = m_new
    tl.store(out_ptr + b * stride_yb + heads[:, None] * stride_yh + d_lat[None, :],
             (acc / l_i[:, None]).to(out_ptr.dtype.element_ty), mask=h_mask[:, None])


def run(q: torch.Tensor, kv_cache: torch.Tensor, block_table: torch.Tensor, seq_lens: torch.Tensor,
        sm_scale: float, kv_lora_rank: int) -> torch.Tensor:
    batch, num_heads, d_qk = q.shape
    page = kv_cache.shape[1]
    dl, dr = kv_lora_rank, d_qk - kv_lora_rank
    o_part = torch.empty((batch, num_heads, NUM_KV_SPLITS, dl), dtype=torch.float32, device=q.device)
    lse_part = torch.empty((batch, num_heads, NUM_KV_SPLITS), dtype=torch.float32, device=q.device)
    out = torch.empty((batch, num_heads, dl), dtype=q.dtype, device=q.device)
    head_blocks = triton.cdiv(num_heads, BLOCK_H)
    block_n = min(BLOCK_N, page)
    mla_decode_stage1[(batch, head_blocks, NUM_KV_SPLITS)](
        q, kv_cache, block_table, seq_lens, o_part, lse_part, sm_scale, num_heads,
        q.stride(0), q.stride(1), block_table.stride(0), o_part.stride(0), o_part.stride(1), o_part.stride(2),
        lse_part.stride(0), lse_part.stride(1),
        DL=dl, DR=dr, PAGE=page, BLOCK_H=BLOCK_H, BLOCK_N=block_n, NUM_SPLITS=NUM_KV_SPLITS)
    mla_decode_stage2[(batch, head_blocks)](
        o_part, lse_part, seq_lens, out, num_heads,
        o_part.stride(0), o_part.stride(1), o_part.stride(2), lse_part.stride(0), lse_part.stride(1),
        out.stride(0), out.stride(1),
        DL=dl, PAGE=page, BLOCK_H=BLOCK_H, NUM_SPLITS=NUM_KV_SPLITS)
    return out
