"""Null-aware z-score over the whole column (avg / stddev_samp OVER ()), columns split across programs."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 2048


@triton.jit
def _zscore_over(x, valid, out, N, S, share, stride_x, stride_v, stride_o, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    s = tl.program_id(1)
    xc = x + c * stride_x
    vc = valid + c * stride_v
    oc = out + c * stride_o
    lanes = tl.arange(0, BLOCK)
    # count and mean of the column's valid rows
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + lanes
        m = offs < N
        ok = tl.load(vc + offs, mask=m, other=0).to(tl.float32)
        xv = tl.load(xc + offs, mask=m, other=0.0)
        acc += tl.where(ok > 0.0, xv, 0.0)
        cnt += ok
    n = tl.sum(cnt, axis=0)
    mean = tl.sum(acc, axis=0) / n
    # sum of squared deviations about the mean
    sq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + lanes
        m = offs < N
        ok = tl.load(vc + offs, mask=m, other=0).to(tl.float32)
        xv = tl.load(xc + offs, mask=m, other=0.0)
        d = tl.where(ok > 0.0, xv - mean, 0.0)
        sq += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(sq, axis=0) / (n - 1.0))
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
    _zscore_over[(C, S)](x, valid, out, N, S, share, x.stride(0), valid.stride(0), out.stride(0),
                         BLOCK=_BLOCK)
    return out
