"""WeNet chunk-masked encoder self-attention (add_optional_chunk_mask + forward_attention) as a
triton-ascend kernel: one program per AI core, looping over (batch*head, query block) tasks."""
import math

import torch
import triton
import triton.language as tl

NUM_AI_CORES = 20
NEG_BIG = -1.0e30


@triton.jit
def _visible_keys(q_pos, k_pos, chunk_size, num_left_chunks, seq_len):
    q_chunk = q_pos // chunk_size
    lo = tl.maximum((q_chunk - num_left_chunks) * chunk_size, 0)
    lo = tl.where(num_left_chunks < 0, 0, lo)
    hi = (q_chunk + 1) * chunk_size
    return (k_pos[None, :] >= lo[:, None]) & (k_pos[None, :] < hi[:, None]) & (k_pos[None, :] < seq_len)


@triton.jit
def chunk_attention_kernel(q_ptr, k_ptr, v_ptr, len_ptr, out_ptr, n_heads, n_ctx, n_tasks, chunk_size,
                           num_left_chunks, qk_scale, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                           BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    n_prog = tl.num_programs(0)
    n_mblk = tl.cdiv(n_ctx, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    for task in range(pid, n_tasks, n_prog):
        bh = task // n_mblk
        m_start = (task % n_mblk) * BLOCK_M
        seq_len = tl.load(len_ptr + bh // n_heads)
        base = bh.to(tl.int64) * n_ctx * HEAD_DIM
        offs_m = m_start + tl.arange(0, BLOCK_M)
        m_ok = offs_m < n_ctx
        q = tl.load(q_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=m_ok[:, None], other=0.0)
        m_i = tl.full([BLOCK_M], NEG_BIG, dtype=tl.float32)
        l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
        acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
        for n_start in range(0, n_ctx, BLOCK_N):
            offs_n = n_start + tl.arange(0, BLOCK_N)
            n_ok = offs_n < n_ctx
            kv_off = base + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
            k = tl.load(k_ptr + kv_off, mask=n_ok[:, None], other=0.0)
            v = tl.load(v_ptr + kv_off, mask=n_ok[:, None], other=0.0)
            visible = _visible_keys(offs_m, offs_n, chunk_size, num_left_chunks, seq_len)
            s = tl.dot(q, tl.trans(k)) * qk_scale
            s = tl.where(visible, s, NEG_BIG)
            m_new = tl.maximum(m_i, tl.max(s, axis=1))
            alpha = tl.exp2(m_i - m_new)
            p = tl.where(visible, tl.exp2(s - m_new[:, None]), 0.0)
            l_i = l_i * alpha + tl.sum(p, axis=1)
            acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
            m_i = m_new
        out = acc / tl.where(l_i > 0.0, l_i, 1.0)[:, None]
        tl.store(out_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], out.to(out_ptr.dtype.element_ty),
                 mask=m_ok[:, None])


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, lengths: torch.Tensor, chunk_size: int,
        num_left_chunks: int) -> torch.Tensor:
    B, H, T, D = q.shape
    out = torch.empty_like(q)
    block_m, block_n = 64, 64
    n_tasks = B * H * triton.cdiv(T, block_m)
    grid = (min(NUM_AI_CORES, n_tasks),)
    qk_scale = 1.0 / math.sqrt(D) * 1.4426950408889634
    chunk_attention_kernel[grid](q, k, v, lengths, out, H, T, n_tasks, chunk_size, num_left_chunks, qk_scale,
                                 HEAD_DIM=D, BLOCK_M=block_m, BLOCK_N=block_n)
    return out
