"""mLSTM parallel stabilised forward: gate matrix, running stabiliser max and normaliser, flash-style."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _mlstm_fwd(q, k, v, vecB, vecI, h, S, qk_scale,
               DQK: tl.constexpr, DV: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               BLOCK_DV: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_v = tl.program_id(1)
    bh = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, DQK)
    offs_v = pid_v * BLOCK_DV + tl.arange(0, BLOCK_DV)
    mmask = offs_m < S
    q_tile = tl.load(q + (bh * S + offs_m[:, None]) * DQK + offs_d[None, :], mask=mmask[:, None], other=0.0)
    b_row = tl.load(vecB + bh * S + offs_m, mask=mmask, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    n_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DV], dtype=tl.float32)
    for start_n in range(0, S, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        nmask = offs_n < S
        k_tile = tl.load(k + (bh * S + offs_n[:, None]) * DQK + offs_d[None, :], mask=nmask[:, None], other=0.0)
        v_tile = tl.load(v + (bh * S + offs_n[:, None]) * DV + offs_v[None, :], mask=nmask[:, None], other=0.0)
        b_col = tl.load(vecB + bh * S + offs_n, mask=nmask, other=0.0)
        i_col = tl.load(vecI + bh * S + offs_n, mask=nmask, other=0.0)
        log_d = b_row[:, None] - b_col[None, :] + i_col[None, :]
        log_d = tl.where(offs_m[:, None] >= offs_n[None, :], log_d, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(log_d, axis=1))
        alpha = tl.exp(m_i - m_new)
        c = tl.dot(q_tile, tl.trans(k_tile)) * qk_scale * tl.exp(log_d - m_new[:, None])
        n_i = n_i * alpha + tl.sum(c, axis=1)
        acc = acc * alpha[:, None] + tl.dot(c.to(v_tile.dtype), v_tile)
        m_i = m_new
    norm = tl.maximum(tl.abs(n_i), tl.exp(-m_i)) + 1e-6
    out = acc / norm[:, None]
    tl.store(h + (bh * S + offs_m[:, None]) * DV + offs_v[None, :], out.to(h.dtype.element_ty), mask=mmask[:, None])


def run(q, k, v, vecB, vecI) -> torch.Tensor:
    B, NH, S, DQK = q.shape
    DV = v.shape[-1]
    h = torch.empty(B, NH, S, DV, device=q.device, dtype=q.dtype)
    BLOCK_M, BLOCK_N = 64, 64
    BLOCK_DV = min(128, DV)
    grid = (triton.cdiv(S, BLOCK_M), DV // BLOCK_DV, B * NH)
    _mlstm_fwd[grid](q, k, v, vecB, vecI, h, S, 1.0 / math.sqrt(DQK), DQK=DQK, DV=DV,
                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_DV=BLOCK_DV, num_warps=8, num_stages=3)
    return h
