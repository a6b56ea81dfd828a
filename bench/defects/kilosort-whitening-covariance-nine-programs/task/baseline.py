"""Kilosort whitening: channel covariance of one filtered batch, CC = X @ X.T / NT (fp32, tf32 dot)."""
import torch
import triton
import triton.language as tl

BLOCK_M = 128
BLOCK_N = 128
BLOCK_K = 32
SPLIT_T = 14          # 3 x 3 output tiles x 14 time chunks = 126 programs on 132 SMs
SUM_BLOCK = 1024


@triton.jit
def _batch_covariance(x, part, n_chan, n_time, stride_c, chunk,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    split = tl.program_id(2)
    row_ok = rows < n_chan
    col_ok = cols < n_chan
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    t_lo = split * chunk
    t_hi = tl.minimum(t_lo + chunk, n_time)
    for t0 in range(t_lo, t_hi, BLOCK_K):
        t = t0 + tl.arange(0, BLOCK_K)
        t_ok = t < n_time
        xa = tl.load(x + rows[:, None] * stride_c + t[None, :], mask=row_ok[:, None] & t_ok[None, :], other=0.0)
        xb = tl.load(x + cols[None, :] * stride_c + t[:, None], mask=t_ok[:, None] & col_ok[None, :], other=0.0)
        acc = tl.dot(xa, xb, acc)
    tl.store(part + split * n_chan * n_chan + rows[:, None] * n_chan + cols[None, :], acc,
             mask=row_ok[:, None] & col_ok[None, :])


@triton.jit
def _sum_splits(part, cc, n_elem, inv_nt, SPLIT_T: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n_elem
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for s in tl.static_range(SPLIT_T):
        total += tl.load(part + s * n_elem + offs, mask=ok, other=0.0)
    tl.store(cc + offs, total * inv_nt, mask=ok)


def run(x: torch.Tensor) -> torch.Tensor:
    n_chan, n_time = x.shape
    chunk = triton.cdiv(triton.cdiv(n_time, SPLIT_T), BLOCK_K) * BLOCK_K
    part = torch.empty((SPLIT_T, n_chan, n_chan), device=x.device, dtype=torch.float32)
    cc = torch.empty((n_chan, n_chan), device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(n_chan, BLOCK_M), triton.cdiv(n_chan, BLOCK_N), SPLIT_T)
    _batch_covariance[grid](x, part, n_chan, n_time, x.stride(0), chunk,
                            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=8, num_stages=3)
    n_elem = n_chan * n_chan
    _sum_splits[(triton.cdiv(n_elem, SUM_BLOCK),)](part, cc, n_elem, 1.0 / n_time,
                                                  SPLIT_T=SPLIT_T, BLOCK=SUM_BLOCK, num_warps=4)
    return cc
