"""Pairwise Euclidean distances of a point cloud, stored as Ripser's compressed lower-triangular matrix."""
import torch
import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_N = 32
BLOCK_K = 16


@triton.jit
def _lower_distances(x, out, n, dim, stride,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tile_i = tl.program_id(0)
    tile_j = tl.program_id(1)
    if tile_j > tile_i:  # only tiles on or below the diagonal hold entries j < i
        return
    i = tile_i * BLOCK_M + tl.arange(0, BLOCK_M)
    j = tile_j * BLOCK_N + tl.arange(0, BLOCK_N)
    i_ok = i < n
    j_ok = j < n
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    sq_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    sq_j = tl.zeros([BLOCK_N], dtype=tl.float32)
    for k0 in range(0, dim, BLOCK_K):
        k = k0 + tl.arange(0, BLOCK_K)
        k_ok = k < dim
        a = tl.load(x + i[:, None] * stride + k[None, :], mask=i_ok[:, None] & k_ok[None, :], other=0.0)
        b = tl.load(x + j[:, None] * stride + k[None, :], mask=j_ok[:, None] & k_ok[None, :], other=0.0)
        acc = tl.dot(a, tl.trans(b), acc)
        af = a.to(tl.float32)
        bf = b.to(tl.float32)
        sq_i += tl.sum(af * af, axis=1)
        sq_j += tl.sum(bf * bf, axis=1)
    dist = tl.sqrt(tl.maximum(sq_i[:, None] + sq_j[None, :] - 2.0 * acc, 0.0))
    keep = (j[None, :] < i[:, None]) & i_ok[:, None]
    idx = i[:, None] * (i[:, None] - 1) // 2 + j[None, :]
    tl.store(out + idx, dist, mask=keep)


def run(points: torch.Tensor) -> torch.Tensor:
    n, dim = points.shape
    out = torch.empty(n * (n - 1) // 2, device=points.device, dtype=torch.float32)
    tiles = triton.cdiv(n, BLOCK_M)
    _lower_distances[(tiles, tiles)](points, out, n, dim, points.stride(0),
                                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
    return out
