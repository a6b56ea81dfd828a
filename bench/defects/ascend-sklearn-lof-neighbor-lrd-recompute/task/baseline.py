"""scikit-learn LocalOutlierFactor: negative_outlier_factor_ of the training points from their kNN graph."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BR = 8


@triton.jit
def _lof_lrd(dist_ptr, nbr_ptr, lrd_ptr, N, K, stride_d, stride_n,
             BR: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    m = tl.arange(0, BK)
    kmask = m < K
    for blk in range(pid, tl.cdiv(N, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rmask = rows < N
        mask = rmask[:, None] & kmask[None, :]
        d = tl.load(dist_ptr + rows[:, None] * stride_d + m[None, :], mask=mask, other=0.0)
        nb = tl.load(nbr_ptr + rows[:, None] * stride_n + m[None, :], mask=mask, other=0)
        kd = tl.load(dist_ptr + nb * stride_d + (K - 1), mask=mask, other=0.0)
        reach = tl.where(mask, tl.maximum(d, kd), 0.0)
        lrd = 1.0 / (tl.sum(reach, axis=1) / K + 1e-10)
        tl.store(lrd_ptr + rows, lrd, mask=rmask)


@triton.jit
def _lof_score(nbr_ptr, lrd_ptr, out_ptr, N, K, stride_n,
               BR: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    m = tl.arange(0, BK)
    kmask = m < K
    for blk in range(pid, tl.cdiv(N, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rmask = rows < N
        mask = rmask[:, None] & kmask[None, :]
        nb = tl.load(nbr_ptr + rows[:, None] * stride_n + m[None, :], mask=mask, other=0)
        lrd = tl.load(lrd_ptr + rows, mask=rmask, other=1.0)
        lrd_nb = tl.load(lrd_ptr + nb, mask=mask, other=0.0)
        ratio = tl.where(mask, lrd_nb, 0.0)
        tl.store(out_ptr + rows, -(tl.sum(ratio, axis=1) / K) / lrd, mask=rmask)


def run(dist: torch.Tensor, nbr: torch.Tensor) -> torch.Tensor:
    N, K = dist.shape
    lrd = torch.empty(N, device=dist.device, dtype=torch.float32)
    out = torch.empty(N, device=dist.device, dtype=dist.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BR)),)
    _lof_lrd[grid](dist, nbr, lrd, N, K, dist.stride(0), nbr.stride(0),
                   BR=BR, BK=triton.next_power_of_2(K))
    _lof_score[grid](nbr, lrd, out, N, K, nbr.stride(0),
                     BR=BR, BK=triton.next_power_of_2(K))
    return out
