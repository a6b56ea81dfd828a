"""Null-aware z-score over the whole column (avg / stddev_samp OVER ()), columns split across programs."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048


@triton.jit
def _split_stats(x, valid, part, N, S, share, stride_x, stride_v, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    s = tl.program_id(1)
    xc = x + c * stride_x
    vc = valid + c * stride_v
    lanes = tl.arange(0, BLOCK)
    lo = s * share
    hi = tl.minimum(lo + share, N)
    # count and mean of this split's valid rows
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(lo, hi, BLOCK):
        offs = start + lanes
        m = offs < hi
        ok = tl.load(vc + offs, mask=m, other=0).to(tl.float32)
        xv = tl.load(xc + offs, mask=m, other=0.0)
        acc += tl.where(ok > 0.0, xv, 0.0)
        cnt += ok
    n = tl.sum(cnt, axis=0)
    mean = tl.sum(acc, axis=0) / tl.maximum(n, 1.0)
    # sum of squared deviations about that mean
    sq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(lo, hi, BLOCK):
        offs = start + lanes
        m = offs < hi
        ok = tl.load(vc + offs, mask=m, other=0).to(tl.float32)
        xv = tl.load(xc + offs, mask=m, other=0.0)
        d = tl.where(ok > 0.0, xv - mean, 0.0)
        sq += d * d
    row = part + c * 3 * S
    tl.store(row + s, n)
    tl.store(row + S + s, mean)
    tl.store(row + 2 * S + s, tl.sum(sq, axis=0))


@triton.jit
def _zscore_apply(x, valid, part, out, N, S, share, stride_x, stride_v, stride_o,
                  BLOCK: tl.constexpr, BS: tl.constexpr):
    c = tl.program_id(0)
    s = tl.program_id(1)
    xc = x + c * stride_x
    vc = valid + c * stride_v
    oc = out + c * stride_o
    lanes = tl.arange(0, BLOCK)
    # merge the column's S split statistics (Chan et al.)
    j = tl.arange(0, BS)
    row = part + c * 3 * S
    n_j = tl.load(row + j, mask=j < S, other=0.0)
    mean_j = tl.load(row + S + j, mask=j < S, other=0.0)
    m2_j = tl.load(row + 2 * S + j, mask=j < S, other=0.0)
    n = tl.sum(n_j, axis=0)
    mean = tl.sum(n_j * mean_j, axis=0) / n
    dm = mean_j - mean
    m2 = tl.sum(m2_j + n_j * dm * dm, axis=0)
    rstd = 1.0 / tl.sqrt(m2 / (n - 1.0))
    # normalize this program's split
    lo = s * share
    hi = tl.minimum(lo + share, N)
    for start in range(lo, hi, BLOCK):
        offs = start + lanes
        m = offs < hi
        ok = tl.load(vc + offs, mask=m, other=0).to(tl.float32)
        xv = tl.load(xc + offs, mask=m, other=0.0)
        y = tl.where(ok > 0.0, (xv - mean) * rstd, 0.0)
        tl.store(oc + offs, y, mask=m)


def run(x: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    C, N = x.shape
    out = torch.empty((C, N), device=x.device, dtype=torch.float32)
    S = max(1, _VECTOR_CORES // C)
    share = triton.cdiv(triton.cdiv(N, S), _BLOCK) * _BLOCK
    part = torch.empty((C, 3, S), device=x.device, dtype=torch.float32)
    _split_stats[(C, S)](x, valid, part, N, S, share, x.stride(0), valid.stride(0), BLOCK=_BLOCK)
    _zscore_apply[(C, S)](x, valid, part, out, N, S, share, x.stride(0), valid.stride(0), out.stride(0),
                          BLOCK=_BLOCK, BS=triton.next_power_of_2(S))
    return out
