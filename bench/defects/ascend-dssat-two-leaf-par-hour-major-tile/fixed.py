"""Daily sunlit / whole-canopy PAR absorption of a two-leaf canopy from hourly forcing (DSSAT ETPHOT-style, Ascend)."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK_C = 64
_SIGMA = 0.15
_S1 = math.sqrt(1.0 - _SIGMA)
_RHO_H = (1.0 - _S1) / (1.0 + _S1)


@triton.jit
def _two_leaf_par_day(lat, lai, par, fd, canopy_out, sun_out, N, H, stride_c, sin_d, cos_d,
                      SIGMA: tl.constexpr, S1: tl.constexpr, RHO_H: tl.constexpr,
                      BLOCK_C: tl.constexpr, BLOCK_H: tl.constexpr):
    KDP: tl.constexpr = 0.719
    RHO_CD: tl.constexpr = 0.036
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    hours = tl.arange(0, BLOCK_H)
    hmask = hours < H
    cosw = tl.cos((hours.to(tl.float32) - 11.5) * 0.2617993877991494)   # hour angle at mid-hour, pi/12 per hour
    for blk in range(pid, tl.cdiv(N, BLOCK_C), nprog):
        cells = blk * BLOCK_C + tl.arange(0, BLOCK_C)
        cmask = cells < N
        la = tl.load(lat + cells, mask=cmask, other=0.0)
        L = tl.load(lai + cells, mask=cmask, other=0.0)[:, None]
        # tile [cells, hours]: each cell's 24 contiguous hourly values along the last axis
        offs = cells[:, None] * stride_c + hours[None, :]
        mask = cmask[:, None] & hmask[None, :]
        I = tl.load(par + offs, mask=mask, other=0.0)
        f = tl.load(fd + offs, mask=mask, other=0.0)

        sinb = (tl.sin(la) * sin_d)[:, None] + (tl.cos(la) * cos_d)[:, None] * cosw[None, :]
        day = sinb > 0.05
        kb = 0.5 / tl.maximum(sinb, 0.05)
        kbp = kb * S1
        rho_cb = 1.0 - tl.exp(-2.0 * RHO_H * kb / (1.0 + kb))
        ib = I * (1.0 - f)
        idf = I * f
        ext_b = tl.exp(-kb * L)
        canopy = (1.0 - rho_cb) * ib * (1.0 - tl.exp(-kbp * L)) + (1.0 - RHO_CD) * idf * (1.0 - tl.exp(-KDP * L))
        sun = (ib * (1.0 - SIGMA) * (1.0 - ext_b)
               + (1.0 - RHO_CD) * idf * KDP / (KDP + kb) * (1.0 - tl.exp(-KDP * L) * ext_b)
               + ib * ((1.0 - rho_cb) * kbp / (kbp + kb) * (1.0 - tl.exp(-kbp * L) * ext_b)
                       - (1.0 - SIGMA) * (1.0 - ext_b * ext_b) * 0.5))
        canopy = tl.sum(tl.where(day, canopy, 0.0), axis=1) * 3600e-6
        sun = tl.sum(tl.where(day, sun, 0.0), axis=1) * 3600e-6
        tl.store(canopy_out + cells, canopy, mask=cmask)
        tl.store(sun_out + cells, sun, mask=cmask)


def run(lat: torch.Tensor, lai: torch.Tensor, par: torch.Tensor, fd: torch.Tensor, decl: float):
    N, H = par.shape
    canopy = torch.empty((N,), device=par.device, dtype=torch.float32)
    sun = torch.empty((N,), device=par.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, _BLOCK_C)),)
    _two_leaf_par_day[grid](lat, lai, par, fd, canopy, sun, N, H, par.stride(0),
                            math.sin(decl), math.cos(decl), SIGMA=_SIGMA, S1=_S1, RHO_H=_RHO_H,
                            BLOCK_C=_BLOCK_C, BLOCK_H=triton.next_power_of_2(H))
    return canopy, sun
