"""ICP correspondences: brute-force nearest target point of every source point, gated by the max distance."""
import torch
import triton
import triton.language as tl

BLOCK_M = 16
BLOCK_N = 128


@triton.jit
def _nearest_target(src, tgt, index, dist2, m, n, max_d2, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    i = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = i < m
    px = tl.load(src + 3 * i, mask=row_ok, other=0.0)
    py = tl.load(src + 3 * i + 1, mask=row_ok, other=0.0)
    pz = tl.load(src + 3 * i + 2, mask=row_ok, other=0.0)
    best = tl.full([BLOCK_M, BLOCK_N], float("inf"), tl.float32)
    best_j = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.int32)
    for start in range(0, n, BLOCK_N):
        j = start + tl.arange(0, BLOCK_N)
        ok = j < n
        qx = tl.load(tgt + 3 * j, mask=ok, other=0.0)
        qy = tl.load(tgt + 3 * j + 1, mask=ok, other=0.0)
        qz = tl.load(tgt + 3 * j + 2, mask=ok, other=0.0)
        dx = qx[None, :] - px[:, None]
        dy = qy[None, :] - py[:, None]
        dz = qz[None, :] - pz[:, None]
        d2 = dx * dx + dy * dy + dz * dz
        closer = ok[None, :] & (d2 < best)
        best = tl.where(closer, d2, best)
        best_j = tl.where(closer, j[None, :], best_j)
    d_min = tl.min(best, axis=1)
    j_min = tl.min(tl.where(best == d_min[:, None], best_j, 2147483647), axis=1)
    hit = d_min <= max_d2
    tl.store(index + i, tl.where(hit, j_min, -1), mask=row_ok)
    tl.store(dist2 + i, tl.where(hit, d_min, 0.0), mask=row_ok)


def run(source: torch.Tensor, target: torch.Tensor, max_distance: float) -> tuple:
    m, n = source.shape[0], target.shape[0]
    index = torch.empty(m, device=source.device, dtype=torch.int32)
    dist2 = torch.empty(m, device=source.device, dtype=torch.float32)
    grid = (triton.cdiv(m, BLOCK_M),)
    _nearest_target[grid](source, target, index, dist2, m, n, max_distance * max_distance,
                          BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return index, dist2
