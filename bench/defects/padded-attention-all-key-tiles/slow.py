"""Padded-batch encoder attention: the flash-attention forward with a key-padding mask; every program scans all S keys."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def padded_attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, lens_ptr, S, sm_scale,
                           stride_b, stride_h, stride_s,
                           HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    h = tl.program_id(1)
    b = tl.program_id(2)
    seq_len = tl.load(lens_ptr + b)
    base = b.to(tl.int64) * stride_b + h * stride_h
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :], mask=offs_m[:, None] < S, other=0.0)
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    for start_n in range(0, S, BLOCK_N):
        cols = start_n + offs_n
        kv_off = base + cols[:, None] * stride_s + offs_d[None, :]
        k = tl.load(k_ptr + kv_off, mask=cols[:, None] < S, other=0.0)
        v = tl.load(v_ptr + kv_off, mask=cols[:, None] < S, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        qk = tl.where((cols < seq_len)[None, :], qk, float("-inf"))   # key padding mask
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    out = tl.where((offs_m < seq_len)[:, None], out, 0.0)             # padding query rows are zeros
    tl.store(o_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :], out.to(o_ptr.dtype.element_ty),
             mask=offs_m[:, None] < S)


def run(q, k, v, seq_lens) -> torch.Tensor:
    B, H, S, D = q.shape
    o = torch.empty_like(q)
    BLOCK_M, BLOCK_N = 128, 64
    grid = (triton.cdiv(S, BLOCK_M), H, B)
    padded_attn_fwd_kernel[grid](q, k, v, o, seq_lens, S, 1.0 / math.sqrt(D),
                                 q.stride(0), q.stride(1), q.stride(2),
                                 HEAD_DIM=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4, num_stages=2)
    return o
