"""Tree verification attention: each draft-tree token is run as its own decode query over the
prefix keys and then the tree keys it may see."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _online_update(acc, m_i, l_i, s, v):
    m_new = tl.maximum(m_i, tl.max(s, 0))
    alpha = tl.exp2(m_i - m_new)
    p = tl.exp2(s - m_new)
    l_i = l_i * alpha + tl.sum(p, 0)
    acc = acc * alpha + tl.sum(p[:, None] * v.to(tl.float32), 0)
    return acc, m_new, l_i


@triton.jit
def tree_attn_kernel(q_ptr, k_ptr, v_ptr, mask_ptr, o_ptr, prefix_len, T, qk_scale,
                     sq_b, sq_t, sq_h, sk_b, sk_t, sk_h, so_b, so_t, so_h,
                     GROUP: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr):
    bt = tl.program_id(0)
    h = tl.program_id(1)
    b = bt // T
    i = bt % T
    kvh = h // GROUP
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK_N)
    q = tl.load(q_ptr + b * sq_b + i * sq_t + h * sq_h + offs_d).to(tl.float32)
    k_base = k_ptr + b * sk_b + kvh * sk_h
    v_base = v_ptr + b * sk_b + kvh * sk_h
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    m_i = -float("inf")
    l_i = 0.0
    for start in range(0, prefix_len, BLOCK_N):
        n = start + offs_n
        n_valid = n < prefix_len
        k = tl.load(k_base + n[:, None] * sk_t + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        v = tl.load(v_base + n[:, None] * sk_t + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        s = tl.sum(q[None, :] * k.to(tl.float32), 1) * qk_scale
        s = tl.where(n_valid, s, -float("inf"))
        acc, m_i, l_i = _online_update(acc, m_i, l_i, s, v)
    for start in range(0, T, BLOCK_N):
        j = start + offs_n
        j_valid = j < T
        n = prefix_len + j
        k = tl.load(k_base + n[:, None] * sk_t + offs_d[None, :], mask=j_valid[:, None], other=0.0)
        v = tl.load(v_base + n[:, None] * sk_t + offs_d[None, :], mask=j_valid[:, None], other=0.0)
        tm = tl.load(mask_ptr + b * T * T + i * T + j, mask=j_valid, other=0)
        s = tl.sum(q[None, :] * k.to(tl.float32), 1) * qk_scale
        s = tl.where(tm != 0, s, -float("inf"))
        acc, m_i, l_i = _online_update(acc, m_i, l_i, s, v)
    out = acc / l_i
    tl.store(o_ptr + b * so_b + i * so_t + h * so_h + offs_d, out.to(o_ptr.dtype.element_ty))


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, tree_mask: torch.Tensor, prefix_len: int) -> torch.Tensor:
    B, T, HQ, D = q.shape
    HKV = k.shape[2]
    o = torch.empty_like(q)
    BLOCK_N = 64 if D <= 128 else 32
    qk_scale = 1.0 / math.sqrt(D) * 1.4426950408889634
    grid = (B * T, HQ)
    tree_attn_kernel[grid](q, k, v, tree_mask, o, prefix_len, T, qk_scale,
                           q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
                           o.stride(0), o.stride(1), o.stride(2),
                           GROUP=HQ // HKV, HEAD_DIM=D, BLOCK_N=BLOCK_N, num_warps=4, num_stages=2)
    return o
