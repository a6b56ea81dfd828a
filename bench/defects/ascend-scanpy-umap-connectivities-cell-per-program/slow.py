"""UMAP kNN membership strengths (smooth_knn_dist + compute_membership_strengths), one cell per program."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _umap_membership(dist_ptr, w_ptr, K, stride_d, stride_w, target, inv_k,
                     N_ITER: tl.constexpr, BK: tl.constexpr):
    cell = tl.program_id(0)
    cols = tl.arange(0, BK)
    kmask = cols < K
    d = tl.load(dist_ptr + cell * stride_d + cols, mask=kmask, other=float("inf"))
    # rho: distance to the nearest neighbour that is not a duplicate of the cell
    rho = tl.min(tl.where(d > 0.0, d, float("inf")), axis=0)
    rho = tl.where(rho == float("inf"), 0.0, rho)
    diff = d - rho
    nbr = tl.minimum(cols, 1).to(tl.float32)  # 0 on column 0 (the cell itself), 1 on neighbours
    lo = 0.0
    hi = float("inf")
    mid = 1.0
    done = 0.0
    for _ in range(N_ITER):
        terms = tl.where(diff > 0.0, tl.exp(-diff / mid), 1.0)
        psum = tl.sum(terms * nbr, axis=0)
        done = tl.where(tl.abs(psum - target) < 1e-5, 1.0, done)
        upper = psum > target
        new_hi = tl.where(upper, mid, hi)
        new_lo = tl.where(upper, lo, mid)
        new_mid = tl.where(new_hi == float("inf"), mid * 2.0, (new_lo + new_hi) * 0.5)
        keep = done > 0.0
        lo = tl.where(keep, lo, new_lo)
        hi = tl.where(keep, hi, new_hi)
        mid = tl.where(keep, mid, new_mid)
    floor = 1e-3 * tl.sum(tl.where(d < float("inf"), d, 0.0), axis=0) * inv_k
    sigma = tl.where((rho > 0.0) & (mid < floor), floor, mid)
    w = tl.where(diff > 0.0, tl.exp(-diff / sigma), 1.0)
    w = w * nbr
    tl.store(w_ptr + cell * stride_w + cols, w, mask=kmask)


def run(knn_dists: torch.Tensor) -> torch.Tensor:
    n, k = knn_dists.shape
    w = torch.empty((n, k), device=knn_dists.device, dtype=knn_dists.dtype)
    BK = triton.next_power_of_2(k)
    _umap_membership[(n,)](knn_dists, w, k, knn_dists.stride(0), w.stride(0),
                           math.log2(k), 1.0 / k, N_ITER=64, BK=BK)
    return w
