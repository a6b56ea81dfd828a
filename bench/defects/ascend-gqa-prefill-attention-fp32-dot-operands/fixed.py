"""Causal GQA prefill attention (flash-attention forward) for triton-ascend: a grid of one program per
cube core, each looping over (batch, head, query block) tasks with an online softmax over the key
blocks up to the diagonal. Both tl.dot calls take bf16 operands and accumulate in fp32 on the cube unit."""
import math

import torch
import triton
import triton.language as tl

NUM_CUBE_CORES = 20


@triton.jit
def gqa_attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, qk_scale, HQ: tl.constexpr, HK: tl.constexpr,
                    D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, n_tasks,
                    NUM_CORES: tl.constexpr):
    pid = tl.program_id(0)
    n_mblk = tl.cdiv(seq_len, BLOCK_M)
    offs_d = tl.arange(0, D)
    for task in range(pid, n_tasks, NUM_CORES):
        bh = task // n_mblk
        mblk = task % n_mblk
        b = bh // HQ
        h = bh % HQ
        kvh = h // (HQ // HK)
        q_base = q_ptr + (b * HQ + h) * seq_len * D
        k_base = k_ptr + (b * HK + kvh) * seq_len * D
        v_base = v_ptr + (b * HK + kvh) * seq_len * D
        offs_m = mblk * BLOCK_M + tl.arange(0, BLOCK_M)
        m_mask = offs_m < seq_len
        q = tl.load(q_base + offs_m[:, None] * D + offs_d[None, :], mask=m_mask[:, None], other=0.0)
        m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
        l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
        acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
        hi = tl.minimum((mblk + 1) * BLOCK_M, seq_len)
        for start_n in range(0, hi, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            n_mask = offs_n < seq_len
            k = tl.load(k_base + offs_n[:, None] * D + offs_d[None, :], mask=n_mask[:, None], other=0.0)
            v = tl.load(v_base + offs_n[:, None] * D + offs_d[None, :], mask=n_mask[:, None], other=0.0)
            s = tl.dot(q, tl.trans(k)) * qk_scale
            keep = (offs_n[None, :] <= offs_m[:, None]) & n_mask[None, :]
            s = tl.where(keep, s, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, axis=1))
            alpha = tl.exp2(m_i - m_new)
            p = tl.exp2(s - m_new[:, None])
            l_i = l_i * alpha + tl.sum(p, axis=1)
            acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
            m_i = m_new
        out = acc / l_i[:, None]
        o_base = o_ptr + (b * HQ + h) * seq_len * D
        tl.store(o_base + offs_m[:, None] * D + offs_d[None, :], out.to(o_ptr.dtype.element_ty),
                 mask=m_mask[:, None])


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, HQ, S, D = q.shape
    HK = k.shape[1]
    o = torch.empty_like(q)
    block_m = 128
    n_tasks = B * HQ * triton.cdiv(S, block_m)
    qk_scale = 1.4426950408889634 / math.sqrt(D)
    gqa_attn_kernel[(NUM_CUBE_CORES,)](q, k, v, o, S, qk_scale, HQ=HQ, HK=HK, D=D, BLOCK_M=block_m,
                                       BLOCK_N=128, n_tasks=n_tasks, NUM_CORES=NUM_CUBE_CORES)
    return o
