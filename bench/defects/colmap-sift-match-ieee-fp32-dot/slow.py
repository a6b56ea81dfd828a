"""COLMAP one-way SIFT matching: best / second-best integer dot per feature, then the ratio and distance tests."""
import torch
import triton
import triton.language as tl

BLOCK_M = 64
BLOCK_N = 64
BLOCK_K = 32
DIM = 128


@triton.jit
def _acos_unit(x):
    # acos on [0, 1]: Cephes asinf polynomial, with acos(x) = 2 asin(sqrt((1 - x) / 2)) above 0.5.
    upper = x > 0.5
    z = tl.where(upper, 0.5 * (1.0 - x), x * x)
    s = tl.where(upper, tl.sqrt(z), x)
    p = (((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + 7.4953002686e-2) * z \
        + 1.6666752422e-1
    asin_s = s + s * z * p
    return tl.where(upper, 2.0 * asin_s, 1.5707963267948966 - asin_s)


@triton.jit
def _match_one_way(d1, d2, match, best_dist, n1, n2, max_ratio, max_distance,
                   DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < n1
    k = tl.arange(0, BLOCK_K)
    best = tl.zeros([BLOCK_M], dtype=tl.float32)
    second = tl.zeros([BLOCK_M], dtype=tl.float32)
    best_i2 = tl.full([BLOCK_M], -1, tl.int32)
    for start in range(0, n2, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        col_ok = cols < n2
        dots = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for kk in range(0, DIM, BLOCK_K):
            a = tl.load(d1 + rows[:, None] * DIM + kk + k[None, :], mask=row_ok[:, None], other=0)
            b = tl.load(d2 + cols[:, None] * DIM + kk + k[None, :], mask=col_ok[:, None], other=0)
            # integer dot products of the 0..255 descriptors, kept exact in fp32
            dots = tl.dot(a.to(tl.float32), tl.trans(b.to(tl.float32)), dots, input_precision="ieee")
        dots = tl.where(col_ok[None, :], dots, 0.0)
        tile_best = tl.max(dots, axis=1)
        tile_i2 = tl.min(tl.where(dots == tile_best[:, None], cols[None, :], 2147483647), axis=1)
        tile_second = tl.max(tl.where(cols[None, :] == tile_i2[:, None], 0.0, dots), axis=1)
        # COLMAP's scan order: a strictly larger dot takes over, the old best drops to second
        second = tl.maximum(tl.maximum(second, tile_second), tl.minimum(best, tile_best))
        take = tile_best > best
        best_i2 = tl.where(take, tile_i2, best_i2)
        best = tl.maximum(best, tile_best)
    norm = 1.0 / (512.0 * 512.0)
    dist1 = _acos_unit(tl.minimum(best * norm, 1.0))
    dist2 = _acos_unit(tl.minimum(second * norm, 1.0))
    ok = (best_i2 >= 0) & (dist1 <= max_distance) & (dist1 < max_ratio * dist2)
    tl.store(match + rows, tl.where(ok, best_i2, -1), mask=row_ok)
    tl.store(best_dist + rows, dist1, mask=row_ok)


def run(desc1: torch.Tensor, desc2: torch.Tensor, max_ratio: float, max_distance: float) -> tuple:
    n1, n2 = desc1.shape[0], desc2.shape[0]
    match = torch.empty(n1, device=desc1.device, dtype=torch.int32)
    best_dist = torch.empty(n1, device=desc1.device, dtype=torch.float32)
    grid = (triton.cdiv(n1, BLOCK_M),)
    _match_one_way[grid](desc1, desc2, match, best_dist, n1, n2, max_ratio, max_distance,
                         DIM=DIM, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
    return match, best_dist
