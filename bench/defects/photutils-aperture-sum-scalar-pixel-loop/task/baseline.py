"""Circular-aperture photometry, 'center' method: per source the sum of data and of err^2 over the pixels
whose centres lie inside radius r."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _aperture_sum(data, err, pos, sums, sum_errs, H, W, r2, R: tl.constexpr, TILE: tl.constexpr):
    src = tl.program_id(0)
    cx = tl.load(pos + 2 * src)
    cy = tl.load(pos + 2 * src + 1)
    ix = tl.floor(cx + 0.5).to(tl.int32)
    iy = tl.floor(cy + 0.5).to(tl.int32)
    py = iy - R + tl.arange(0, TILE)
    px = ix - R + tl.arange(0, TILE)
    fy = py.to(tl.float32) - cy
    fx = px.to(tl.float32) - cx
    row_ok = (py >= 0) & (py < H) & (py <= iy + R)
    col_ok = (px >= 0) & (px < W) & (px <= ix + R)
    inside = (fx[None, :] * fx[None, :] + fy[:, None] * fy[:, None] < r2) & row_ok[:, None] & col_ok[None, :]
    idx = py[:, None] * W + px[None, :]
    v = tl.load(data + idx, mask=inside, other=0.0)
    e = tl.load(err + idx, mask=inside, other=0.0)
    acc = tl.sum(v)
    acc_var = tl.sum(e * e)
    tl.store(sums + src, acc)
    tl.store(sum_errs + src, tl.sqrt(acc_var))


def run(data: torch.Tensor, err: torch.Tensor, positions: torch.Tensor, r: float) -> tuple:
    h, w = data.shape
    n = positions.shape[0]
    R = math.ceil(r)
    sums = torch.empty(n, device=data.device, dtype=torch.float32)
    sum_errs = torch.empty(n, device=data.device, dtype=torch.float32)
    _aperture_sum[(n,)](data, err, positions, sums, sum_errs, h, w, r * r,
                        R=R, TILE=triton.next_power_of_2(2 * R + 1), num_warps=4)
    return sums, sum_errs
