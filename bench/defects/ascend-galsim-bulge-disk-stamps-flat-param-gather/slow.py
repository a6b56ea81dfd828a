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
def _draw_bulge_disk(prm_ptr, img_ptr, S, total, scale, half,
                     EXP_K: tl.constexpr, DEV_B: tl.constexpr, DEV_NORM: tl.constexpr,
                     INV_2PI: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    SS = S * S
    for blk in range(pid, tl.cdiv(total, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < total
        # one lane per pixel of the whole batch: galaxy and pixel decoded from the flat index
        gal = offs // SS
        pix = offs - gal * SS
        iy = pix // S
        ix = pix - iy * S
        prm = prm_ptr + gal * 8
        flux = tl.load(prm + 0, mask=m, other=0.0)
        bfrac = tl.load(prm + 1, mask=m, other=0.0)
        hlr_d = tl.load(prm + 2, mask=m, other=1.0)
        hlr_b = tl.load(prm + 3, mask=m, other=1.0)
        g1 = tl.load(prm + 4, mask=m, other=0.0)
        g2 = tl.load(prm + 5, mask=m, other=0.0)
        dx = tl.load(prm + 6, mask=m, other=0.0)
        dy = tl.load(prm + 7, mask=m, other=0.0)
        x = (ix.to(tl.float32) - half) * scale - dx
        y = (iy.to(tl.float32) - half) * scale - dy
        inv = 1.0 / tl.sqrt(1.0 - g1 * g1 - g2 * g2)
        u = ((1.0 - g1) * x - g2 * y) * inv
        v = ((1.0 + g1) * y - g2 * x) * inv
        r = tl.sqrt(u * u + v * v)
        inv_r0 = EXP_K / hlr_d
        fb = flux * bfrac
        disk = (flux - fb) * INV_2PI * inv_r0 * inv_r0 * tl.exp(-r * inv_r0)
        q = tl.sqrt(tl.sqrt(r / hlr_b))
        bulge = fb * DEV_NORM / (hlr_b * hlr_b) * tl.exp(-DEV_B * q)
        val = (disk + bulge) * (scale * scale)
        tl.store(img_ptr + offs, val, mask=m)


def run(params: torch.Tensor, S: int, scale: float) -> torch.Tensor:
    N = params.shape[0]
    img = torch.empty((N, S, S), device=params.device, dtype=params.dtype)
    total = N * S * S
    BLOCK = 2048
    grid = (min(_VECTOR_CORES, triton.cdiv(total, BLOCK)),)
    _draw_bulge_disk[grid](params, img, S, total, scale, (S - 1) / 2,
                           EXP_K=_EXP_HLR_OVER_R0, DEV_B=_DEV_B, DEV_NORM=_DEV_NORM, INV_2PI=_INV_2PI,
                           BLOCK=BLOCK)
    return img
