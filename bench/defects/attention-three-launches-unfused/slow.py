"""Attention op by op: Q K^T to an fp32 score buffer, a row softmax, then P V (three launches)."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def scores_kernel(q_ptr, k_ptr, s_ptr, S, D, scale,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    bh = tl.program_id(2)
    q_ptr += bh * S * D
    k_ptr += bh * S * D
    s_ptr += bh * S * S
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for d in range(0, D, BLOCK_K):
        q = tl.load(q_ptr + rm[:, None] * D + (d + rk)[None, :],
                    mask=(rm[:, None] < S) & ((d + rk)[None, :] < D), other=0.0)
        kt = tl.load(k_ptr + rn[None, :] * D + (d + rk)[:, None],
                     mask=(rn[None, :] < S) & ((d + rk)[:, None] < D), other=0.0)
        acc = tl.dot(q, kt, acc)
    tl.store(s_ptr + rm[:, None] * S + rn[None, :], acc * scale,
             mask=(rm[:, None] < S) & (rn[None, :] < S))


@triton.jit
def softmax_kernel(s_ptr, p_ptr, S, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(s_ptr + row * S + cols, mask=cols < S, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(p_ptr + row * S + cols, (e / tl.sum(e, axis=0)).to(p_ptr.dtype.element_ty),
             mask=cols < S)


@triton.jit
def pv_kernel(p_ptr, v_ptr, o_ptr, S, D,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    bh = tl.program_id(2)
    p_ptr += bh * S * S
    v_ptr += bh * S * D
    o_ptr += bh * S * D
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for j in range(0, S, BLOCK_K):
        p = tl.load(p_ptr + rm[:, None] * S + (j + rk)[None, :],
                    mask=(rm[:, None] < S) & ((j + rk)[None, :] < S), other=0.0)
        v = tl.load(v_ptr + (j + rk)[:, None] * D + rn[None, :],
                    mask=((j + rk)[:, None] < S) & (rn[None, :] < D), other=0.0)
        acc = tl.dot(p, v, acc)
    tl.store(o_ptr + rm[:, None] * D + rn[None, :], acc.to(o_ptr.dtype.element_ty),
             mask=(rm[:, None] < S) & (rn[None, :] < D))


def run(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, H, S, D = q.shape
    scores = torch.empty((B * H, S, S), dtype=torch.float32, device=q.device)
    probs = torch.empty((B * H, S, S), dtype=q.dtype, device=q.device)
    out = torch.empty_like(q)
    scores_kernel[(triton.cdiv(S, 64), triton.cdiv(S, 64), B * H)](
        q, k, scores, S, D, 1.0 / math.sqrt(D), BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    softmax_kernel[(B * H * S,)](scores, probs, S, BLOCK=triton.next_power_of_2(S))
    pv_kernel[(triton.cdiv(S, 64), triton.cdiv(D, 64), B * H)](
        probs, v, out, S, D, BLOCK_M=64, BLOCK_N=64, BLOCK_K=32)
    return out
