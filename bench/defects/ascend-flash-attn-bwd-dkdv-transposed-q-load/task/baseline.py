"""FlashAttention-2 backward dK/dV as a triton-ascend kernel: one program per cube core, each walking
(head, key block) tasks and streaming the query tiles from the diagonal on."""
import math

import torch
import triton
import triton.language as tl

NUM_CUBE_CORES = 20


@triton.jit
def _bwd_dkdv_inner(dk, dv, k, v, Q, DO, LSE, DELTA, stride_tok, seq_len, start_n, sm_scale,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    for start_m in range(start_n, seq_len, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        m_ok = offs_m < seq_len
        q = tl.load(Q + offs_m[:, None] * stride_tok + offs_d[None, :], mask=m_ok[:, None], other=0.0)
        lse = tl.load(LSE + offs_m, mask=m_ok, other=0.0)
        qk_t = tl.dot(k, tl.trans(q))
        p_t = tl.exp(qk_t * sm_scale - lse[None, :])
        keep = (offs_m[None, :] >= offs_n[:, None]) & m_ok[None, :]
        p_t = tl.where(keep, p_t, 0.0)
        do = tl.load(DO + offs_m[:, None] * stride_tok + offs_d[None, :], mask=m_ok[:, None], other=0.0)
        dv += tl.dot(p_t.to(do.dtype), do)
        d_i = tl.load(DELTA + offs_m, mask=m_ok, other=0.0)
        dp_t = tl.dot(v, tl.trans(do))
        ds_t = p_t * (dp_t - d_i[None, :])
        dk += tl.dot(ds_t.to(q.dtype), q)
    return dk, dv


@triton.jit
def attn_bwd_dkdv_kernel(Q, K, V, DO, DK, DV, LSE, DELTA, sm_scale, seq_len, n_tasks, n_blocks_n,
                         NUM_CORES: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         HEAD_DIM: tl.constexpr):
    pid = tl.program_id(0)
    offs_d = tl.arange(0, HEAD_DIM)
    for task in range(pid, n_tasks, NUM_CORES):
        bh = task // n_blocks_n
        start_n = (task % n_blocks_n) * BLOCK_N
        head_off = bh * seq_len * HEAD_DIM
        row_off = bh * seq_len
        offs_n = start_n + tl.arange(0, BLOCK_N)
        n_ok = offs_n < seq_len
        tile = head_off + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
        k = tl.load(K + tile, mask=n_ok[:, None], other=0.0)
        v = tl.load(V + tile, mask=n_ok[:, None], other=0.0)
        dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
        dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
        dk, dv = _bwd_dkdv_inner(dk, dv, k, v, Q + head_off, DO + head_off, LSE + row_off, DELTA + row_off,
                                 HEAD_DIM, seq_len, start_n, sm_scale,
                                 BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, HEAD_DIM=HEAD_DIM)
        dk = dk * sm_scale
        tl.store(DK + tile, dk.to(DK.dtype.element_ty), mask=n_ok[:, None])
        tl.store(DV + tile, dv.to(DV.dtype.element_ty), mask=n_ok[:, None])


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, do: torch.Tensor,
        lse: torch.Tensor, delta: torch.Tensor) -> tuple:
    B, H, S, D = q.shape
    dk = torch.empty_like(k)
    dv = torch.empty_like(v)
    block_m, block_n = 64, 128
    n_blocks_n = triton.cdiv(S, block_n)
    n_tasks = B * H * n_blocks_n
    grid = (min(n_tasks, NUM_CUBE_CORES),)
    attn_bwd_dkdv_kernel[grid](q, k, v, do, dk, dv, lse, delta, 1.0 / math.sqrt(D), S, n_tasks, n_blocks_n,
                               NUM_CORES=NUM_CUBE_CORES, BLOCK_M=block_m, BLOCK_N=block_n, HEAD_DIM=D)
    return dk, dv
