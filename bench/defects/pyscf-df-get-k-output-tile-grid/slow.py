"""Density-fitted exchange: K = rhok^T rhok over the flattened (aux, occupied) index."""
import torch
import triton
import triton.language as tl

BM = 128
BN = 128
BK = 32


@triton.jit
def _vk_gram(b_ptr, k_ptr, nrows, nao, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    m_ok = rm < nao
    n_ok = rn < nao
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for t in range(0, tl.cdiv(nrows, BK)):
        rows = t * BK + rk
        r_ok = rows < nrows
        # rhok^T tile [BM, BK] and rhok tile [BK, BN]; both read along the contiguous AO axis
        a = tl.load(b_ptr + rows[None, :] * nao + rm[:, None], mask=m_ok[:, None] & r_ok[None, :], other=0.0)
        b = tl.load(b_ptr + rows[:, None] * nao + rn[None, :], mask=r_ok[:, None] & n_ok[None, :], other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(k_ptr + rm[:, None] * nao + rn[None, :], acc, mask=m_ok[:, None] & n_ok[None, :])


def run(rhok: torch.Tensor) -> torch.Tensor:
    naux, nocc, nao = rhok.shape
    nrows = naux * nocc
    vk = torch.empty((nao, nao), device=rhok.device, dtype=torch.float32)
    grid = (triton.cdiv(nao, BM), triton.cdiv(nao, BN))
    _vk_gram[grid](rhok, vk, nrows, nao, BM=BM, BN=BN, BK=BK, num_warps=8, num_stages=3)
    return vk
