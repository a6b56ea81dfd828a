"""Varlen causal flash attention in one launch: (query block, head, sequence) programs read cu_seqlens."""
import torch
import triton
import triton.language as tl


@triton.jit
def varlen_attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, cu_ptr, stride_t, stride_h, qk_scale,
                       HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    seq = tl.program_id(2)
    start = tl.load(cu_ptr + seq)
    n = tl.load(cu_ptr + seq + 1) - start
    if tl.program_id(0) * BLOCK_M < n:
        rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
        dims = tl.arange(0, HEAD_DIM)
        base = start.to(tl.int64) * stride_t + tl.program_id(1) * stride_h
        q_offs = base + rows[:, None] * stride_t + dims[None, :]
        q = tl.load(q_ptr + q_offs, mask=rows[:, None] < n, other=0.0)
        m_i = tl.full([BLOCK_M], -float("inf"), dtype=tl.float32)
        l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
        acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
        hi = tl.minimum((tl.program_id(0) + 1) * BLOCK_M, n)
        for kstart in range(0, hi, BLOCK_N):
            cols = kstart + tl.arange(0, BLOCK_N)
            kv_offs = base + cols[:, None] * stride_t + dims[None, :]
            k = tl.load(k_ptr + kv_offs, mask=cols[:, None] < n, other=0.0)
            qk = tl.dot(q, tl.trans(k))
            qk = tl.where((cols[None, :] <= rows[:, None]) & (cols[None, :] < n), qk * qk_scale, -float("inf"))
            m_new = tl.maximum(m_i, tl.max(qk, axis=1))
            alpha = tl.math.exp2(m_i - m_new)
            p = tl.math.exp2(qk - m_new[:, None])
            l_i = l_i * alpha + tl.sum(p, axis=1)
            v = tl.load(v_ptr + kv_offs, mask=cols[:, None] < n, other=0.0)
            acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
            m_i = m_new
        out = acc / l_i[:, None]
        tl.store(o_ptr + q_offs, out.to(o_ptr.dtype.element_ty), mask=rows[:, None] < n)


def run(q, k, v, cu_seqlens, max_seqlen) -> torch.Tensor:
    total, H, D = q.shape
    o = torch.empty_like(q)
    qk_scale = D ** -0.5 * 1.4426950408889634
    grid = (triton.cdiv(max_seqlen, 128), H, cu_seqlens.shape[0] - 1)
    varlen_attn_kernel[grid](q, k, v, o, cu_seqlens, q.stride(0), q.stride(1), qk_scale,
                             HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, num_warps=8, num_stages=3)
    return o
