"""Kriging field on a raster: mean + sum_j w_j C(|x0 - x_j|), Matern 3/2 covariance, precomputed weights."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _krige_field(grid, cond, weights, field, m, n, mean, var, k_scale,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < m
    qx = tl.load(grid + 2 * rows, mask=row_ok, other=0.0).to(tl.float64)
    qy = tl.load(grid + 2 * rows + 1, mask=row_ok, other=0.0).to(tl.float64)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float64)
    for start in range(0, n, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        col_ok = cols < n
        cx = tl.load(cond + 2 * cols, mask=col_ok, other=0.0).to(tl.float64)
        cy = tl.load(cond + 2 * cols + 1, mask=col_ok, other=0.0).to(tl.float64)
        w = tl.load(weights + cols, mask=col_ok, other=0.0).to(tl.float64)
        dx = qx[:, None] - cx[None, :]
        dy = qy[:, None] - cy[None, :]
        s = tl.sqrt(dx * dx + dy * dy) * k_scale
        acc += (1.0 + s) * tl.exp(-s) * w[None, :]
    out = mean + var * tl.sum(acc, axis=1)
    tl.store(field + rows, out.to(tl.float32), mask=row_ok)


def run(grid: torch.Tensor, cond: torch.Tensor, weights: torch.Tensor,
        mean: float, var: float, len_scale: float) -> torch.Tensor:
    m, n = grid.shape[0], cond.shape[0]
    field = torch.empty(m, device=grid.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N = 64, 32
    _krige_field[(triton.cdiv(m, BLOCK_M),)](grid, cond, weights, field, m, n, mean, var,
                                              math.sqrt(3.0) / len_scale,
                                              BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return field
