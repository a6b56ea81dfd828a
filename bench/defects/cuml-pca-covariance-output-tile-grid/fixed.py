"""Sample covariance of a tall feature matrix by streaming Welford/Chan co-moment merges."""
import torch
import triton
import triton.language as tl

PROGRAMS_TARGET = 4 * 132


@triton.jit
def _chan_comoment(x, stride_x, row_lo, row_hi, ci, cj, C, BK: tl.constexpr):
    """Mean of columns ci and cj and the centred co-moment over rows [row_lo, row_hi)."""
    mean_i = tl.zeros([ci.shape[0]], dtype=tl.float32)
    mean_j = tl.zeros([cj.shape[0]], dtype=tl.float32)
    m2 = tl.zeros([ci.shape[0], cj.shape[0]], dtype=tl.float32)
    count = 0.0
    for r0 in range(row_lo, row_hi, BK):
        rows = r0 + tl.arange(0, BK)
        rv = rows < row_hi
        xa = tl.load(x + rows[:, None] * stride_x + ci[None, :], mask=rv[:, None] & (ci < C)[None, :], other=0.0)
        xb = tl.load(x + rows[:, None] * stride_x + cj[None, :], mask=rv[:, None] & (cj < C)[None, :], other=0.0)
        nb = tl.minimum(row_hi - r0, BK).to(tl.float32)
        ma = tl.sum(xa, axis=0) / nb
        mb = tl.sum(xb, axis=0) / nb
        ca = tl.where(rv[:, None], xa - ma[None, :], 0.0)
        cb = tl.where(rv[:, None], xb - mb[None, :], 0.0)
        total = count + nb
        da = ma - mean_i
        db = mb - mean_j
        m2 = tl.dot(tl.trans(ca), cb, m2)
        m2 += da[:, None] * db[None, :] * (count * nb / total)
        mean_i += da * (nb / total)
        mean_j += db * (nb / total)
        count = total
    return mean_i, mean_j, m2


@triton.jit
def _covariance_partial(x, part_m2, part_mean, N, C, stride_x, ROWS,
                        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    chunk = tl.program_id(1)
    tiles_n = tl.cdiv(C, BN)
    ci = (pid // tiles_n) * BM + tl.arange(0, BM)
    cj = (pid % tiles_n) * BN + tl.arange(0, BN)
    row_lo = chunk * ROWS
    row_hi = tl.minimum(row_lo + ROWS, N)
    mean_i, mean_j, m2 = _chan_comoment(x, stride_x, row_lo, row_hi, ci, cj, C, BK)
    tl.store(part_m2 + chunk * C * C + ci[:, None] * C + cj[None, :], m2,
             mask=(ci < C)[:, None] & (cj < C)[None, :])
    tl.store(part_mean + chunk * C + ci, mean_i, mask=(ci < C) & (pid % tiles_n == 0))


@triton.jit
def _covariance_merge(part_m2, part_mean, cov, N, C, ROWS, CHUNKS, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(C, BN)
    ci = (pid // tiles_n) * BM + tl.arange(0, BM)
    cj = (pid % tiles_n) * BN + tl.arange(0, BN)
    ok = (ci < C)[:, None] & (cj < C)[None, :]
    mean_i = tl.zeros([BM], dtype=tl.float32)
    mean_j = tl.zeros([BN], dtype=tl.float32)
    m2 = tl.zeros([BM, BN], dtype=tl.float32)
    count = 0.0
    for chunk in range(0, CHUNKS):
        nb = tl.minimum(N - chunk * ROWS, ROWS).to(tl.float32)
        ma = tl.load(part_mean + chunk * C + ci, mask=ci < C, other=0.0)
        mb = tl.load(part_mean + chunk * C + cj, mask=cj < C, other=0.0)
        total = count + nb
        da = ma - mean_i
        db = mb - mean_j
        m2 += tl.load(part_m2 + chunk * C * C + ci[:, None] * C + cj[None, :], mask=ok, other=0.0)
        m2 += da[:, None] * db[None, :] * (count * nb / total)
        mean_i += da * (nb / total)
        mean_j += db * (nb / total)
        count = total
    tl.store(cov + ci[:, None] * C + cj[None, :], m2 / (N - 1), mask=ok)


def run(x: torch.Tensor) -> torch.Tensor:
    N, C = x.shape
    BM = BN = 128
    BK = 32
    tiles = triton.cdiv(C, BM) * triton.cdiv(C, BN)
    rows = triton.cdiv(triton.cdiv(N, triton.cdiv(PROGRAMS_TARGET, tiles)), BK) * BK
    chunks = triton.cdiv(N, rows)
    part_m2 = torch.empty((chunks, C, C), device=x.device, dtype=torch.float32)
    part_mean = torch.empty((chunks, C), device=x.device, dtype=torch.float32)
    cov = torch.empty((C, C), device=x.device, dtype=torch.float32)
    _covariance_partial[(tiles, chunks)](x, part_m2, part_mean, N, C, x.stride(0), rows,
                                         BM=BM, BN=BN, BK=BK, num_warps=8)
    _covariance_merge[(tiles,)](part_m2, part_mean, cov, N, C, rows, chunks, BM=BM, BN=BN, num_warps=8)
    return cov
