"""Circular-aperture photometry, 'center' method: per source the sum of data and of err^2 over the pixels
whose centres lie inside radius r."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _aperture_sum(data, err, pos, sums, sum_errs, H, W, r2, R: tl.constexpr):
    src = tl.program_id(0)
    cx = tl.load(pos + 2 * src)
    cy = tl.load(pos + 2 * src + 1)
    ix = tl.floor(cx + 0.5).to(tl.int32)
    iy = tl.floor(cy + 0.5).to(tl.int32)
    acc = 0.0
    acc_var = 0.0
    for dy in range(-R, R + 1):
        py = iy + dy
        fy = py.to(tl.float32) - cy
        row_ok = (py >= 0) & (py < H)
        for dx in range(-R, R + 1):
            px = ix + dx
            fx = px.to(tl.float32) - cx
            inside = (fx * fx + fy * fy < r2) & row_ok & (px >= 0) & (px < W)
            v = tl.load(data + py * W + px, mask=inside, other=0.0)
            e = tl.load(err + py * W + px, mask=inside, other=0.0)
            acc += v
            acc_var += e * e
    tl.store(sums + src, acc)
    tl.store(sum_errs + src, tl.sqrt(acc_var))


def run(data: torch.Tensor, err: torch.Tensor, positions: torch.Tensor, r: float) -> tuple:
    h, w = data.shape
    n = positions.shape[0]
    R = math.ceil(r)
    sums = torch.empty(n, device=data.device, dtype=torch.float32)
    sum_errs = torch.empty(n, device=data.device, dtype=torch.float32)
    _aperture_sum[(n,)](data, err, positions, sums, sum_errs, h, w, r * r,
                        R=R, num_warps=4)
    return sums, sum_errs
