"""Bulge + disk galaxy postage stamps (GalSim Exponential + DeVaucouleurs, sheared, method='no_pixel')."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_EXP_HLR_OVER_R0 = 1.6783469900166605
_DEV_B = 7.66924944
_DEV_NORM = _DEV_B ** 8 / (8 * math.pi * 5040.0)
_INV_2PI = 1.0 / (2 * math.pi)


@triton.jit
def _draw_bulge_disk(prm_ptr, img_ptr, S, n_yblk, n_items, scale, half,
                     EXP_K: tl.constexpr, DEV_B: tl.constexpr, DEV_NORM: tl.constexpr,
                     INV_2PI: tl.constexpr, BY: tl.constexpr, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    ry = tl.arange(0, BY)
    ix = tl.arange(0, BS)
    for item in range(pid, n_items, nprog):
        gal = item // n_yblk
        iy = (item % n_yblk) * BY + ry
        prm = prm_ptr + gal * 8
        flux = tl.load(prm + 0)
        bfrac = tl.load(prm + 1)
        hlr_d = tl.load(prm + 2)
        hlr_b = tl.load(prm + 3)
        g1 = tl.load(prm + 4)
        g2 = tl.load(prm + 5)
        dx = tl.load(prm + 6)
        dy = tl.load(prm + 7)
        x = (ix.to(tl.float32) - half) * scale - dx
        y = (iy.to(tl.float32) - half) * scale - dy
        inv = 1.0 / tl.sqrt(1.0 - g1 * g1 - g2 * g2)
        u = ((1.0 - g1) * x[None, :] - g2 * y[:, None]) * inv
        v = ((1.0 + g1) * y[:, None] - g2 * x[None, :]) * inv
        r = tl.sqrt(u * u + v * v)
        inv_r0 = EXP_K / hlr_d
        fb = flux * bfrac
        disk = (flux - fb) * INV_2PI * inv_r0 * inv_r0 * tl.exp(-r * inv_r0)
        q = tl.sqrt(tl.sqrt(r / hlr_b))
        bulge = fb * DEV_NORM / (hlr_b * hlr_b) * tl.exp(-DEV_B * q)
        val = (disk + bulge) * (scale * scale)
        m = (iy < S)[:, None] & (ix < S)[None, :]
        tl.store(img_ptr + gal * S * S + iy[:, None] * S + ix[None, :], val, mask=m)


def run(params: torch.Tensor, S: int, scale: float) -> torch.Tensor:
    N = params.shape[0]
    img = torch.empty((N, S, S), device=params.device, dtype=params.dtype)
    BS = triton.next_power_of_2(S)
    BY = min(32, BS)
    n_yblk = triton.cdiv(S, BY)
    n_items = N * n_yblk
    grid = (min(_VECTOR_CORES, n_items),)
    _draw_bulge_disk[grid](params, img, S, n_yblk, n_items, scale, (S - 1) / 2,
                           EXP_K=_EXP_HLR_OVER_R0, DEV_B=_DEV_B, DEV_NORM=_DEV_NORM, INV_2PI=_INV_2PI,
                           BY=BY, BS=BS)
    return img
