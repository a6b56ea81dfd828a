"""k-means assignment: centroid norms, then a tiled |c|^2 - 2 x.c with a running argmin."""
import torch
import triton
import triton.language as tl


@triton.jit
def centroid_norm_kernel(c_ptr, norm_ptr, K, D, BLOCK_K: tl.constexpr, BLOCK_D: tl.constexpr):
    k = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    d = tl.arange(0, BLOCK_D)
    m = (k[:, None] < K) & (d[None, :] < D)
    c = tl.load(c_ptr + k[:, None] * D + d[None, :], mask=m, other=0.0).to(tl.float32)
    tl.store(norm_ptr + k, tl.sum(c * c, axis=1), mask=k < K)


@triton.jit
def _tile_argmin(dist, k0, BLOCK_K: tl.constexpr):
    best = tl.min(dist, axis=1)
    idx = tl.argmin(dist, axis=1) + k0
    return best, idx


@triton.jit
def kmeans_assign_kernel(x_ptr, c_ptr, norm_ptr, label_ptr, N, K, D,
                         BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    n = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    d = tl.arange(0, BLOCK_D)
    nm = n < N
    dm = d < D
    x = tl.load(x_ptr + n[:, None] * D + d[None, :], mask=nm[:, None] & dm[None, :], other=0.0)
    best = tl.full((BLOCK_N,), float("inf"), tl.float32)
    best_idx = tl.zeros((BLOCK_N,), dtype=tl.int32)
    for k0 in range(0, K, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        km = k < K
        c = tl.load(c_ptr + k[:, None] * D + d[None, :], mask=km[:, None] & dm[None, :], other=0.0)
        cn = tl.load(norm_ptr + k, mask=km, other=float("inf"))
        xc = tl.dot(x, tl.trans(c))
        dist = cn[None, :] - 2.0 * xc
        tb, ti = _tile_argmin(dist, k0, BLOCK_K)
        take = tb < best
        best = tl.where(take, tb, best)
        best_idx = tl.where(take, ti, best_idx)
    tl.store(label_ptr + n, best_idx.to(tl.int64), mask=nm)


def run(points: torch.Tensor, centroids: torch.Tensor) -> torch.Tensor:
    N, D = points.shape
    K = centroids.shape[0]
    BLOCK_D = max(16, triton.next_power_of_2(D))
    norms = torch.empty((K,), device=points.device, dtype=torch.float32)
    centroid_norm_kernel[(triton.cdiv(K, 64),)](centroids, norms, K, D, BLOCK_K=64, BLOCK_D=BLOCK_D)
    labels = torch.empty((N,), device=points.device, dtype=torch.int64)
    cfg = {"BLOCK_N": 128, "BLOCK_K": 64, "num_warps": 8, "num_stages": 3}
    grid = (triton.cdiv(N, cfg["BLOCK_N"]),)
    kmeans_assign_kernel[grid](points, centroids, norms, labels, N, K, D, BLOCK_D=BLOCK_D, **cfg)
    return labels
