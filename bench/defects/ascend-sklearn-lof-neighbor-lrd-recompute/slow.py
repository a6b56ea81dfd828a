"""scikit-learn LocalOutlierFactor: negative_outlier_factor_ of the training points from their kNN graph."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BR = 8


@triton.jit
def _lof_score(dist_ptr, nbr_ptr, out_ptr, N, K, stride_d, stride_n,
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
        # lrd of every neighbour, from the neighbour's own row of the kNN graph
        mask3 = mask[:, :, None] & kmask[None, None, :]
        d_nb = tl.load(dist_ptr + nb[:, :, None] * stride_d + m[None, None, :], mask=mask3, other=0.0)
        nb_nb = tl.load(nbr_ptr + nb[:, :, None] * stride_n + m[None, None, :], mask=mask3, other=0)
        kd_nb = tl.load(dist_ptr + nb_nb * stride_d + (K - 1), mask=mask3, other=0.0)
        reach_nb = tl.where(mask3, tl.maximum(d_nb, kd_nb), 0.0)
        lrd_nb = 1.0 / (tl.sum(reach_nb, axis=2) / K + 1e-10)
        ratio = tl.where(mask, lrd_nb, 0.0)
        tl.store(out_ptr + rows, -(tl.sum(ratio, axis=1) / K) / lrd, mask=rmask)


def run(dist: torch.Tensor, nbr: torch.Tensor) -> torch.Tensor:
    N, K = dist.shape
    out = torch.empty(N, device=dist.device, dtype=dist.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BR)),)
    _lof_score[grid](dist, nbr, out, N, K, dist.stride(0), nbr.stride(0),
                     BR=BR, BK=triton.next_power_of_2(K))
    return out
