"""SMC^2 step: every theta-particle's bootstrap PF moves, weights and scores its particles (StochVol model)."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


@triton.jit
def _sv_pf_step(xp, eps, mu, rho, sigma, x_out, lw_out, lpyt, y, R, NX, stride,
                HALF_LOG_2PI: tl.constexpr, BR: tl.constexpr, BX: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BX)
    cmask = cols < NX
    half_y2 = 0.5 * y * y
    log_nx = tl.log(NX.to(tl.float32))
    for blk in range(pid, tl.cdiv(R, BR), nprog):
        rows = blk * BR + tl.arange(0, BR)
        rmask = rows < R
        mask = rmask[:, None] & cmask[None, :]
        offs = rows[:, None] * stride + cols[None, :]
        m = tl.load(mu + rows, mask=rmask, other=0.0)
        r = tl.load(rho + rows, mask=rmask, other=0.0)
        s = tl.load(sigma + rows, mask=rmask, other=0.0)
        xprev = tl.load(xp + offs, mask=mask, other=0.0)
        e = tl.load(eps + offs, mask=mask, other=0.0)
        x = m[:, None] + r[:, None] * (xprev - m[:, None]) + s[:, None] * e
        lw = -HALF_LOG_2PI - 0.5 * x - half_y2 * tl.exp(-x)
        tl.store(x_out + offs, x, mask=mask)
        tl.store(lw_out + offs, lw, mask=mask)
        lw_m = tl.where(cmask[None, :], lw, -float("inf"))
        top = tl.max(lw_m, axis=1)
        tot = tl.sum(tl.exp(lw_m - top[:, None]), axis=1)
        tl.store(lpyt + rows, top + tl.log(tot) - log_nx, mask=rmask)


def _launch(xp, eps, mu, rho, sigma, y, x, lw, lpyt):
    R, NX = xp.shape
    BX = triton.next_power_of_2(NX)
    BR = max(1, 4096 // BX)
    grid = (min(_VECTOR_CORES, triton.cdiv(R, BR)),)
    _sv_pf_step[grid](xp, eps, mu, rho, sigma, x, lw, lpyt, y, R, NX, xp.stride(0),
                      HALF_LOG_2PI=_HALF_LOG_2PI, BR=BR, BX=BX)


def run(xp: torch.Tensor, eps: torch.Tensor, mu: torch.Tensor, rho: torch.Tensor,
        sigma: torch.Tensor, y: float) -> tuple:
    n_theta, nx = xp.shape
    x = torch.empty_like(xp)
    lw = torch.empty_like(xp)
    lpyt = torch.empty(n_theta, device=xp.device, dtype=xp.dtype)
    # all theta-particles' filters advance in one launch
    _launch(xp, eps, mu, rho, sigma, y, x, lw, lpyt)
    return x, lw, lpyt
