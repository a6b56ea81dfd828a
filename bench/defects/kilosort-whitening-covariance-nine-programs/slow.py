"""Kilosort whitening: channel covariance of one filtered batch, CC = X @ X.T / NT (fp32, tf32 dot)."""
import torch
import triton
import triton.language as tl

BLOCK_M = 128
BLOCK_N = 128
BLOCK_K = 32


@triton.jit
def _batch_covariance(x, cc, n_chan, n_time, stride_c, inv_nt,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    row_ok = rows < n_chan
    col_ok = cols < n_chan
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for t0 in range(0, n_time, BLOCK_K):
        t = t0 + tl.arange(0, BLOCK_K)
        t_ok = t < n_time
        xa = tl.load(x + rows[:, None] * stride_c + t[None, :], mask=row_ok[:, None] & t_ok[None, :], other=0.0)
        xb = tl.load(x + cols[None, :] * stride_c + t[:, None], mask=t_ok[:, None] & col_ok[None, :], other=0.0)
        acc = tl.dot(xa, xb, acc)
    tl.store(cc + rows[:, None] * n_chan + cols[None, :], acc * inv_nt,
             mask=row_ok[:, None] & col_ok[None, :])


def run(x: torch.Tensor) -> torch.Tensor:
    n_chan, n_time = x.shape
    cc = torch.empty((n_chan, n_chan), device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(n_chan, BLOCK_M), triton.cdiv(n_chan, BLOCK_N))
    _batch_covariance[grid](x, cc, n_chan, n_time, x.stride(0), 1.0 / n_time,
                            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=8, num_stages=3)
    return cc
