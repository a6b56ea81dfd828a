"""Causal flash-attention forward on triton-ascend: each query block visits only the key tiles at or before it."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B)


@triton.jit
def _attend_block(q, k_base, v_base, offs_m, start_m, S, scale, D: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_d = tl.arange(0, D)
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, D), dtype=tl.float32)
    for start_n in range(0, (start_m + 1) * BLOCK_M, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_mask = offs_n[:, None] < S
        k = tl.load(k_base + offs_n[:, None] * D + offs_d[None, :], mask=kv_mask, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * scale
        keep = (offs_m[:, None].to(tl.float32) >= offs_n[None, :].to(tl.float32)) & (offs_n[None, :] < S)
        qk = tl.where(keep, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_base + offs_n[:, None] * D + offs_d[None, :], mask=kv_mask, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    return acc / l_i[:, None]


@triton.jit
def causal_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, S, n_m_blocks, n_items, scale, D: tl.constexpr,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_d = tl.arange(0, D)
    for item in range(tl.program_id(0), n_items, tl.num_programs(0)):
        start_m = item % n_m_blocks
        base = (item // n_m_blocks).to(tl.int64) * S * D
        offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
        q_mask = offs_m[:, None] < S
        q = tl.load(q_ptr + base + offs_m[:, None] * D + offs_d[None, :], mask=q_mask, other=0.0)
        out = _attend_block(q, k_ptr + base, v_ptr + base, offs_m, start_m, S, scale, D, BLOCK_M, BLOCK_N)
        tl.store(o_ptr + base + offs_m[:, None] * D + offs_d[None, :], out.to(o_ptr.dtype.element_ty), mask=q_mask)


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, scale: float) -> torch.Tensor:
    B, H, S, D = q.shape
    o = torch.empty_like(q)
    n_m_blocks = triton.cdiv(S, 64)
    n_items = n_m_blocks * B * H
    causal_attention_kernel[(min(NUM_VECTOR_CORES, n_items),)](q, k, v, o, S, n_m_blocks, n_items, scale, D=D,
                                                               BLOCK_M=64, BLOCK_N=64)
    return o
