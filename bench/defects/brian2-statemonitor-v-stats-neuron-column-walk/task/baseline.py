"""Brian2 StateMonitor analysis: mean and std of every neuron's recorded v (time-major buffer rec[t, i])."""
import torch
import triton
import triton.language as tl

BLOCK_T = 64
BLOCK_N = 32


@triton.jit
def _v_stats(rec, mean_out, std_out, T, N, BLOCK_T: tl.constexpr, BLOCK_N: tl.constexpr):
    i = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)   # a block of neurons per program
    col_ok = i < N
    v0 = tl.load(rec + i, mask=col_ok, other=0.0)          # shift by the first sample: no cancellation in the variance
    s1 = tl.zeros([BLOCK_T, BLOCK_N], dtype=tl.float32)
    s2 = tl.zeros([BLOCK_T, BLOCK_N], dtype=tl.float32)
    for t0 in range(0, T, BLOCK_T):
        t = t0 + tl.arange(0, BLOCK_T)
        mask = (t < T)[:, None] & col_ok[None, :]
        v = tl.load(rec + t[:, None] * N + i[None, :], mask=mask, other=0.0)
        d = tl.where(mask, v - v0[None, :], 0.0)
        s1 += d
        s2 += d * d
    m1 = tl.sum(s1, axis=0) / T
    m2 = tl.sum(s2, axis=0) / T
    tl.store(mean_out + i, v0 + m1, mask=col_ok)
    tl.store(std_out + i, tl.sqrt(tl.maximum(m2 - m1 * m1, 0.0)), mask=col_ok)


def run(rec: torch.Tensor) -> tuple:
    T, N = rec.shape
    mean = torch.empty(N, device=rec.device, dtype=rec.dtype)
    std = torch.empty(N, device=rec.device, dtype=rec.dtype)
    _v_stats[(triton.cdiv(N, BLOCK_N),)](rec, mean, std, T, N, BLOCK_T=BLOCK_T, BLOCK_N=BLOCK_N, num_warps=4)
    return mean, std
