"""Decode attention with one program per (sequence, head) streaming the whole KV cache."""
import torch
import triton
import triton.language as tl


@triton.jit
def decode_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, qk_scale, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr):
    bh = tl.program_id(0).to(tl.int64)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + bh * HEAD_DIM + dims).to(tl.float32)
    base = bh * S * HEAD_DIM
    m_i = -float("inf")
    l_i = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for start in range(0, S, BLOCK_N):
        keys = start + tl.arange(0, BLOCK_N)
        offs = base + keys[:, None] * HEAD_DIM + dims[None, :]
        k = tl.load(k_ptr + offs, mask=keys[:, None] < S, other=0.0).to(tl.float32)
        s = tl.where(keys < S, tl.sum(q[None, :] * k, axis=1) * qk_scale, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new)
        v = tl.load(v_ptr + offs, mask=keys[:, None] < S, other=0.0).to(tl.float32)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        acc = acc * alpha + tl.sum(p[:, None] * v, axis=0)
        m_i = m_new
    tl.store(o_ptr + bh * HEAD_DIM + dims, (acc / l_i).to(o_ptr.dtype.element_ty))


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, H, S, D = k.shape
    o = torch.empty_like(q)
    qk_scale = D ** -0.5 * 1.4426950408889634
    decode_kernel[(B * H,)](q, k, v, o, S, qk_scale, HEAD_DIM=D, BLOCK_N=64)
    return o
