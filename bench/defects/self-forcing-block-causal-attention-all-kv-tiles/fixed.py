"""Block-causal (chunk-wise) video self-attention, flash-attention forward in Triton."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _attn_tile(acc, l_i, m_i, q, k_ptrs, v_ptrs, cols, q_chunk, L, block_len, qk_scale):
    k = tl.load(k_ptrs, mask=cols[None, :] < L, other=0.0)
    qk = tl.dot(q, k)
    visible = (cols[None, :] < L) & ((cols // block_len)[None, :] <= q_chunk[:, None])
    qk = tl.where(visible, qk * qk_scale, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(qk, 1))
    p = tl.math.exp2(qk - m_new[:, None])
    alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    v = tl.load(v_ptrs, mask=cols[:, None] < L, other=0.0)
    acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
    return acc, l_i, m_new


@triton.jit
def _block_causal_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, L, H, block_len, qk_scale,
                             stride_b, stride_l, n_m_tiles,
                             HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    tile = n_m_tiles - 1 - tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    head_off = b.to(tl.int64) * stride_b + h * HEAD_DIM
    rows = tile * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + head_off + rows[:, None] * stride_l + offs_d[None, :], mask=rows[:, None] < L, other=0.0)
    q_chunk = rows // block_len
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    last_row = tl.minimum(tile * BLOCK_M + BLOCK_M, L) - 1
    kv_end = tl.minimum((last_row // block_len + 1) * block_len, L)
    for start_n in range(0, kv_end, BLOCK_N):
        cols = start_n + offs_n
        k_ptrs = k_ptr + head_off + cols[None, :] * stride_l + offs_d[:, None]
        v_ptrs = v_ptr + head_off + cols[:, None] * stride_l + offs_d[None, :]
        acc, l_i, m_i = _attn_tile(acc, l_i, m_i, q, k_ptrs, v_ptrs, cols, q_chunk, L, block_len, qk_scale)
    acc = acc / l_i[:, None]
    tl.store(o_ptr + head_off + rows[:, None] * stride_l + offs_d[None, :], acc.to(o_ptr.dtype.element_ty),
             mask=rows[:, None] < L)


_CONFIGS = {
    32: {"BLOCK_M": 128, "BLOCK_N": 64, "num_warps": 4, "num_stages": 3},
    64: {"BLOCK_M": 128, "BLOCK_N": 64, "num_warps": 4, "num_stages": 3},
    128: {"BLOCK_M": 128, "BLOCK_N": 64, "num_warps": 8, "num_stages": 3},
}


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_len: int) -> torch.Tensor:
    B, L, H, D = q.shape
    o = torch.empty_like(q)
    cfg = _CONFIGS[D]
    n_m_tiles = triton.cdiv(L, cfg["BLOCK_M"])
    qk_scale = 1.0 / math.sqrt(D) * 1.4426950408889634
    _block_causal_fwd_kernel[(n_m_tiles, B * H)](
        q, k, v, o, L, H, block_len, qk_scale, q.stride(0), q.stride(1), n_m_tiles, HEAD_DIM=D, **cfg)
    return o
