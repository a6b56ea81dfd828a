"""UMAP kNN membership strengths (smooth_knn_dist + compute_membership_strengths), blocks of cells per program."""
import math

import torch
import triton
import triton.language as tl

_VEC_CORES = 40  # Atlas A2 (910B): 20 AI cores x 2 vector cores


@triton.jit
def _umap_membership(dist_ptr, w_ptr, N, K, stride_d, stride_w, target, inv_k,
                     N_ITER: tl.constexpr, BR: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BK)
    kmask = cols < K
    nbr = tl.minimum(cols, 1).to(tl.float32)[None, :]  # 0 on column 0 (the cell itself), 1 on neighbours
    for blk in range(pid, tl.cdiv(N, BR), nprog):
        cells = blk * BR + tl.arange(0, BR)
        mask = (cells < N)[:, None] & kmask[None, :]
        d = tl.load(dist_ptr + cells[:, None] * stride_d + cols[None, :], mask=mask, other=float("inf"))
        # rho: distance to the nearest neighbour that is not a duplicate of the cell
        rho = tl.min(tl.where(d > 0.0, d, float("inf")), axis=1)
        rho = tl.where(rho == float("inf"), 0.0, rho)
        diff = d - rho[:, None]
        lo = tl.zeros([BR], dtype=tl.float32)
        hi = tl.full([BR], float("inf"), dtype=tl.float32)
        mid = tl.full([BR], 1.0, dtype=tl.float32)
        done = tl.zeros([BR], dtype=tl.float32)
        for _ in range(N_ITER):
            terms = tl.where(diff > 0.0, tl.exp(-diff / mid[:, None]), 1.0)
            psum = tl.sum(terms * nbr, axis=1)
            done = tl.where(tl.abs(psum - target) < 1e-5, 1.0, done)
            upper = psum > target
            new_hi = tl.where(upper, mid, hi)
            new_lo = tl.where(upper, lo, mid)
            new_mid = tl.where(new_hi == float("inf"), mid * 2.0, (new_lo + new_hi) * 0.5)
            keep = done > 0.0
            lo = tl.where(keep, lo, new_lo)
            hi = tl.where(keep, hi, new_hi)
            mid = tl.where(keep, mid, new_mid)
        floor = 1e-3 * tl.sum(tl.where(d < float("inf"), d, 0.0), axis=1) * inv_k
        sigma = tl.where((rho > 0.0) & (mid < floor), floor, mid)
        w = tl.where(diff > 0.0, tl.exp(-diff / sigma[:, None]), 1.0)
        w = w * nbr
        tl.store(w_ptr + cells[:, None] * stride_w + cols[None, :], w, mask=mask)


def run(knn_dists: torch.Tensor) -> torch.Tensor:
    n, k = knn_dists.shape
    w = torch.empty((n, k), device=knn_dists.device, dtype=knn_dists.dtype)
    BK = triton.next_power_of_2(k)
    BR = 128
    grid = (min(_VEC_CORES, triton.cdiv(n, BR)),)
    _umap_membership[grid](knn_dists, w, n, k, knn_dists.stride(0), w.stride(0),
                           math.log2(k), 1.0 / k, N_ITER=64, BR=BR, BK=BK)
    return w
