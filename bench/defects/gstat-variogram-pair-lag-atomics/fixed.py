"""Empirical semivariogram: every point pair (i < j) within the cutoff binned by lag distance."""
import torch
import triton
import triton.language as tl

BLOCK = 32
SPLIT = 8


@triton.jit
def _pair_lags(xy, z, sums, counts, n, inv_width,
               N_LAGS: tl.constexpr, LAGS_POW2: tl.constexpr, BLOCK: tl.constexpr, SPLIT: tl.constexpr):
    row_block = tl.program_id(0)
    i = row_block * BLOCK + tl.arange(0, BLOCK)
    row_ok = i < n
    xi = tl.load(xy + 2 * i, mask=row_ok, other=0.0)
    yi = tl.load(xy + 2 * i + 1, mask=row_ok, other=0.0)
    zi = tl.load(z + i, mask=row_ok, other=0.0)
    lags = tl.arange(0, LAGS_POW2)
    acc_s = tl.zeros([BLOCK, LAGS_POW2], dtype=tl.float32)
    acc_c = tl.zeros([BLOCK, LAGS_POW2], dtype=tl.int32)
    for t in range(row_block + tl.program_id(1), tl.cdiv(n, BLOCK), SPLIT):
        j = t * BLOCK + tl.arange(0, BLOCK)
        col_ok = j < n
        xj = tl.load(xy + 2 * j, mask=col_ok, other=0.0)
        yj = tl.load(xy + 2 * j + 1, mask=col_ok, other=0.0)
        zj = tl.load(z + j, mask=col_ok, other=0.0)
        dx = xi[:, None] - xj[None, :]
        dy = yi[:, None] - yj[None, :]
        lag = (tl.sqrt(dx * dx + dy * dy) * inv_width).to(tl.int32)
        keep = (j[None, :] > i[:, None]) & col_ok[None, :] & (lag < N_LAGS)
        lag = tl.where(keep, lag, N_LAGS)
        dz = zi[:, None] - zj[None, :]
        sq = dz * dz
        for k in tl.static_range(N_LAGS):
            hit = lag == k
            s_k = tl.sum(tl.where(hit, sq, 0.0), axis=1)
            c_k = tl.sum(hit.to(tl.int32), axis=1)
            here = lags[None, :] == k
            acc_s += tl.where(here, s_k[:, None], 0.0)
            acc_c += tl.where(here, c_k[:, None], 0)
    valid = lags < N_LAGS
    tl.atomic_add(sums + lags, tl.sum(acc_s, axis=0).to(tl.float64), mask=valid)
    tl.atomic_add(counts + lags, tl.sum(acc_c, axis=0), mask=valid)


@triton.jit
def _semivariance(sums, counts, gamma, N_LAGS: tl.constexpr, LAGS_POW2: tl.constexpr):
    k = tl.arange(0, LAGS_POW2)
    ok = k < N_LAGS
    s = tl.load(sums + k, mask=ok, other=0.0)
    c = tl.load(counts + k, mask=ok, other=0)
    g = tl.where(c > 0, s / (2.0 * tl.maximum(c, 1).to(tl.float64)), 0.0)
    tl.store(gamma + k, g.to(tl.float32), mask=ok)


def run(xy: torch.Tensor, z: torch.Tensor, lag_width: float, n_lags: int) -> tuple:
    n = xy.shape[0]
    lags_pow2 = triton.next_power_of_2(n_lags)
    sums = torch.zeros(n_lags, device=xy.device, dtype=torch.float64)
    counts = torch.zeros(n_lags, device=xy.device, dtype=torch.int32)
    gamma = torch.empty(n_lags, device=xy.device, dtype=torch.float32)
    grid = (triton.cdiv(n, BLOCK), SPLIT)
    _pair_lags[grid](xy, z, sums, counts, n, 1.0 / lag_width,
                     N_LAGS=n_lags, LAGS_POW2=lags_pow2, BLOCK=BLOCK, SPLIT=SPLIT, num_warps=4)
    _semivariance[(1,)](sums, counts, gamma, N_LAGS=n_lags, LAGS_POW2=lags_pow2)
    return gamma, counts
