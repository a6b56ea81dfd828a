"""Density-fitted exchange: K = rhok^T rhok over the flattened (aux, occupied) index."""
import torch
import triton
import triton.language as tl

BM = 128
BN = 128
BK = 32
SPLIT = 8          # slices of the naux*nocc contraction: 4 x 4 tiles x 8 = 128 programs at nao = 512
RED_BLOCK = 1024


@triton.jit
def _vk_gram(b_ptr, ws_ptr, nrows, nao, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
             SPLIT: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_s = tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    m_ok = rm < nao
    n_ok = rn < nao
    n_steps = tl.cdiv(nrows, BK)
    per_slice = tl.cdiv(n_steps, SPLIT)
    t_lo = pid_s * per_slice
    t_hi = tl.minimum(t_lo + per_slice, n_steps)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for t in range(t_lo, t_hi):
        rows = t * BK + rk
        r_ok = rows < nrows
        # rhok^T tile [BM, BK] and rhok tile [BK, BN]; both read along the contiguous AO axis
        a = tl.load(b_ptr + rows[None, :] * nao + rm[:, None], mask=m_ok[:, None] & r_ok[None, :], other=0.0)
        b = tl.load(b_ptr + rows[:, None] * nao + rn[None, :], mask=r_ok[:, None] & n_ok[None, :], other=0.0)
        acc = tl.dot(a, b, acc)
    out = ws_ptr + pid_s * nao * nao + rm[:, None] * nao + rn[None, :]
    tl.store(out, acc, mask=m_ok[:, None] & n_ok[None, :])


@triton.jit
def _sum_slices(ws_ptr, k_ptr, n, SPLIT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in tl.static_range(SPLIT):
        acc += tl.load(ws_ptr + s * n + offs, mask=ok, other=0.0)
    tl.store(k_ptr + offs, acc, mask=ok)


def run(rhok: torch.Tensor) -> torch.Tensor:
    naux, nocc, nao = rhok.shape
    nrows = naux * nocc
    ws = torch.empty((SPLIT, nao, nao), device=rhok.device, dtype=torch.float32)
    vk = torch.empty((nao, nao), device=rhok.device, dtype=torch.float32)
    grid = (triton.cdiv(nao, BM), triton.cdiv(nao, BN), SPLIT)
    _vk_gram[grid](rhok, ws, nrows, nao, BM=BM, BN=BN, BK=BK, SPLIT=SPLIT, num_warps=8, num_stages=3)
    _sum_slices[(triton.cdiv(nao * nao, RED_BLOCK),)](ws, vk, nao * nao, SPLIT=SPLIT, BLOCK=RED_BLOCK)
    return vk
