"""RiskMetrics EWMA covariance over a window of daily returns: C_T = lam^T C_0 + sum_t (1-lam) lam^(T-1-t) r_t r_t^T."""
import math

import torch
import triton
import triton.language as tl

NUM_CORES = 40  # Atlas A2 (910B): 20 AI cube cores, 40 AI vector cores
LAM = 0.94      # RiskMetrics daily decay


@triton.jit
def _ewma_cov_window(cov0, returns, out, N, T, tiles_n, n_tiles, log_lam,
                     BLOCK: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for tile in range(pid, n_tiles, nprog):
        ti = tile // tiles_n
        tj = tile % tiles_n
        ri = ti * BLOCK + tl.arange(0, BLOCK)
        rj = tj * BLOCK + tl.arange(0, BLOCK)
        acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
        for t0 in range(0, T, BLOCK_T):
            days = t0 + tl.arange(0, BLOCK_T)
            dmask = days < T
            w = (1.0 - tl.exp(log_lam)) * tl.exp((T - 1 - days).to(tl.float32) * log_lam)
            a = tl.load(returns + days[:, None] * N + ri[None, :],
                        mask=dmask[:, None] & (ri[None, :] < N), other=0.0)
            b = tl.load(returns + days[:, None] * N + rj[None, :],
                        mask=dmask[:, None] & (rj[None, :] < N), other=0.0)
            acc = tl.dot(tl.trans(a * w[:, None]), b, acc)
        cmask = (ri[:, None] < N) & (rj[None, :] < N)
        c = tl.load(cov0 + ri[:, None] * N + rj[None, :], mask=cmask, other=0.0)
        tl.store(out + ri[:, None] * N + rj[None, :], tl.exp(T * log_lam) * c + acc, mask=cmask)


def run(cov0: torch.Tensor, returns: torch.Tensor) -> torch.Tensor:
    T, N = returns.shape
    out = torch.empty_like(cov0)
    BLOCK, BLOCK_T = 64, 32
    tiles_n = triton.cdiv(N, BLOCK)
    n_tiles = tiles_n * tiles_n
    grid = (min(n_tiles, NUM_CORES),)
    _ewma_cov_window[grid](cov0, returns, out, N, T, tiles_n, n_tiles, math.log(LAM),
                           BLOCK=BLOCK, BLOCK_T=BLOCK_T)
    return out
