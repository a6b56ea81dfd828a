"""Theis drawdown of a pumping well field, superposed over a map of observation points."""
import math

import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _well_function(u):
    # Theis W(u) = E1(u): Abramowitz & Stegun 5.1.53 below u = 1, 5.1.56 above, 0 past u = 60
    small = -tl.log(u) - 0.57721566 + u * (0.99999193 + u * (-0.24991055 + u * (
        0.05519968 + u * (-0.00976004 + u * 0.00107857))))
    uc = tl.minimum(u, 60.0)
    num = (((uc + 8.5733287401) * uc + 18.0590169730) * uc + 8.6347608925) * uc + 0.2677737343
    den = (((uc + 9.5733223454) * uc + 25.6329561486) * uc + 21.0996530827) * uc + 3.9584969228
    large = num / den * tl.exp(-uc) / uc
    return tl.where(u < 1.0, small, tl.where(u < 60.0, large, 0.0))


@triton.jit
def _theis_drawdown(px, py, wx, wy, q, t_on, s_out, n_points, n_wells, time, s_over_4t, rw2, coef,
                    BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n_points
    x = tl.load(px + offs, mask=ok, other=0.0)
    y = tl.load(py + offs, mask=ok, other=0.0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for w in range(n_wells):
        xw = tl.load(wx + w)
        yw = tl.load(wy + w)
        qw = tl.load(q + w)
        elapsed = time - tl.load(t_on + w)
        dx = x - xw
        dy = y - yw
        r2 = tl.maximum(dx * dx + dy * dy, rw2)
        u = s_over_4t * r2 / tl.maximum(elapsed, 1e-6)
        acc += tl.where(elapsed > 0.0, qw * _well_function(u), 0.0)
    tl.store(s_out + offs, acc * coef, mask=ok)


def run(px, py, wx, wy, q, t_on, transmissivity, storativity, time, rw) -> torch.Tensor:
    n_points = px.shape[0]
    s = torch.empty(n_points, device=px.device, dtype=px.dtype)
    grid = (triton.cdiv(n_points, BLOCK),)
    _theis_drawdown[grid](px, py, wx, wy, q, t_on, s, n_points, wx.shape[0], time,
                          storativity / (4.0 * transmissivity), rw * rw, 1.0 / (4.0 * math.pi * transmissivity),
                          BLOCK=BLOCK, num_warps=4)
    return s
