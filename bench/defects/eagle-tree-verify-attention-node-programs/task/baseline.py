"""Tree verification attention: a block of tree queries per program, QK^T and PV as tl.dot."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _online_update(acc, m_i, l_i, s, v):
    m_new = tl.maximum(m_i, tl.max(s, 1))
    alpha = tl.exp2(m_i - m_new)
    p = tl.exp2(s - m_new[:, None])
    l_i = l_i * alpha + tl.sum(p, 1)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return acc, m_new, l_i


@triton.jit
def tree_attn_kernel(q_ptr, k_ptr, v_ptr, mask_ptr, o_ptr, prefix_len, T, HQ, qk_scale,
                     sq_b, sq_t, sq_h, sk_b, sk_t, sk_h, so_b, so_t, so_h,
                     GROUP: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // HQ
    h = bh % HQ
    kvh = h // GROUP
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK_N)
    m_valid = offs_m < T
    q = tl.load(q_ptr + b * sq_b + offs_m[:, None] * sq_t + h * sq_h + offs_d[None, :], mask=m_valid[:, None], other=0.0)
    k_base = k_ptr + b * sk_b + kvh * sk_h
    v_base = v_ptr + b * sk_b + kvh * sk_h
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    m_i = tl.full([BLOCK_M], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    for start in range(0, prefix_len, BLOCK_N):
        n = start + offs_n
        n_valid = n < prefix_len
        k = tl.load(k_base + n[:, None] * sk_t + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        v = tl.load(v_base + n[:, None] * sk_t + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k)) * qk_scale
        s = tl.where(n_valid[None, :], s, -float("inf"))
        acc, m_i, l_i = _online_update(acc, m_i, l_i, s, v)
    for start in range(0, T, BLOCK_N):
        j = start + offs_n
        j_valid = j < T
        n = prefix_len + j
        k = tl.load(k_base + n[:, None] * sk_t + offs_d[None, :], mask=j_valid[:, None], other=0.0)
        v = tl.load(v_base + n[:, None] * sk_t + offs_d[None, :], mask=j_valid[:, None], other=0.0)
        tm = tl.load(mask_ptr + b * T * T + offs_m[:, None] * T + j[None, :],
                     mask=m_valid[:, None] & j_valid[None, :], other=0)
        s = tl.dot(q, tl.trans(k)) * qk_scale
        s = tl.where(tm != 0, s, -float("inf"))
        acc, m_i, l_i = _online_update(acc, m_i, l_i, s, v)
    out = acc / l_i[:, None]
    tl.store(o_ptr + b * so_b + offs_m[:, None] * so_t + h * so_h + offs_d[None, :],
             out.to(o_ptr.dtype.element_ty), mask=m_valid[:, None])


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, tree_mask: torch.Tensor, prefix_len: int) -> torch.Tensor:
    B, T, HQ, D = q.shape
    HKV = k.shape[2]
    o = torch.empty_like(q)
    BLOCK_M = max(16, min(64, triton.next_power_of_2(T)))
    BLOCK_N = 64 if D <= 128 else 32
    qk_scale = 1.0 / math.sqrt(D) * 1.4426950408889634
    grid = (triton.cdiv(T, BLOCK_M), B * HQ)
    tree_attn_kernel[grid](q, k, v, tree_mask, o, prefix_len, T, HQ, qk_scale,
                           q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
                           o.stride(0), o.stride(1), o.stride(2),
                           GROUP=HQ // HKV, HEAD_DIM=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4, num_stages=2)
    return o
