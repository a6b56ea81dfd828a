"""Flash-attention forward (online softmax) over [B, H, S, D]: one program per 128 queries of a head."""
import torch
import triton
import triton.language as tl


@triton.jit
def attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, qk_scale,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    bh = tl.program_id(1).to(tl.int64)
    base = bh * S * HEAD_DIM
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + rows[:, None] * HEAD_DIM + dims[None, :], mask=rows[:, None] < S, other=0.0)
    m_i = tl.full([BLOCK_M], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    for start in range(0, S, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        kv_offs = base + cols[:, None] * HEAD_DIM + dims[None, :]
        k = tl.load(k_ptr + kv_offs, mask=cols[:, None] < S, other=0.0)
        qk = tl.dot(q, tl.trans(k))
        qk = tl.where(cols[None, :] < S, qk * qk_scale, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + kv_offs, mask=cols[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + rows[:, None] * HEAD_DIM + dims[None, :], out.to(o_ptr.dtype.element_ty),
             mask=rows[:, None] < S)


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, H, S, D = q.shape
    o = torch.empty_like(q)
    qk_scale = D ** -0.5 * 1.4426950408889634  # softmax in base 2
    grid = (triton.cdiv(S, 128), B * H)
    attn_fwd_kernel[grid](q, k, v, o, S, qk_scale, HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64,
                          num_warps=8, num_stages=3)
    return o
