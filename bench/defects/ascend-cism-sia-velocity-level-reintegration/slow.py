"""CISM glissade SIA velocity profile (glissade_velo_sia) with the Paterson-Budd rate factor."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
RHOI = 910.0
GRAV = 9.81
PMLT = 9.7456e-8 * RHOI * GRAV
SCYR = 31536000.0
GASCON = 8.314
TRPT = 273.15
LN_A_WARM = math.log(1.733e3 * SCYR)
LN_A_COLD = math.log(3.613e-13 * SCYR)
Q_WARM = 139.0e3
Q_COLD = 60.0e3
TWO_RHOG3 = 2.0 * (RHOI * GRAV) ** 3


@triton.jit
def _layer_term(temp_ptr, sigma_ptr, k, ncol, cols, cmask, H, enhancement,
                PMLT_C: tl.constexpr, GAS_R: tl.constexpr, T0: tl.constexpr,
                LNA_W: tl.constexpr, LNA_C: tl.constexpr, QW: tl.constexpr, QC: tl.constexpr):
    # flwa of layer k times sigma_mid^3 dsigma (the layer's share of the SIA integral, without siafact)
    s0 = tl.load(sigma_ptr + k)
    s1 = tl.load(sigma_ptr + k + 1)
    smid = 0.5 * (s0 + s1)
    t = tl.load(temp_ptr + k * ncol + cols, mask=cmask, other=-20.0)
    tc = tl.minimum(t + PMLT_C * H * smid, 0.0)
    warm = tc >= -10.0
    lna = tl.where(warm, LNA_W, LNA_C)
    q = tl.where(warm, QW, QC)
    flwa = enhancement * tl.exp(lna - q / (GAS_R * (tc + T0)))
    return flwa * (smid * smid * smid * (s1 - s0))


@triton.jit
def _sia_velocity(temp_ptr, thck_ptr, sx_ptr, sy_ptr, ub_ptr, vb_ptr, sigma_ptr, u_ptr, v_ptr,
                  ncol, nz, enhancement, thklim, two_rhog3,
                  PMLT_C: tl.constexpr, GAS_R: tl.constexpr, T0: tl.constexpr,
                  LNA_W: tl.constexpr, LNA_C: tl.constexpr, QW: tl.constexpr, QC: tl.constexpr,
                  BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nlay = nz - 1
    for blk in range(pid, tl.cdiv(ncol, BLOCK), nprog):
        cols = blk * BLOCK + tl.arange(0, BLOCK)
        cmask = cols < ncol
        H = tl.load(thck_ptr + cols, mask=cmask, other=0.0)
        sx = tl.load(sx_ptr + cols, mask=cmask, other=0.0)
        sy = tl.load(sy_ptr + cols, mask=cmask, other=0.0)
        ub = tl.load(ub_ptr + cols, mask=cmask, other=0.0)
        vb = tl.load(vb_ptr + cols, mask=cmask, other=0.0)
        ice = H > thklim
        h2 = H * H
        siafact = two_rhog3 * h2 * h2 * (sx * sx + sy * sy)
        tl.store(u_ptr + nlay * ncol + cols, tl.where(ice, ub, 0.0), mask=cmask)
        tl.store(v_ptr + nlay * ncol + cols, tl.where(ice, vb, 0.0), mask=cmask)
        # level k: vint(k) = -siafact * integral from the bed up to sigma(k) = sum of layers k..nz-2
        for k in range(0, nlay):
            vint = tl.zeros([BLOCK], dtype=tl.float32)
            for j in range(k, nlay):
                vint -= siafact * _layer_term(temp_ptr, sigma_ptr, j, ncol, cols, cmask, H, enhancement,
                                              PMLT_C, GAS_R, T0, LNA_W, LNA_C, QW, QC)
            tl.store(u_ptr + k * ncol + cols, tl.where(ice, ub + vint * sx, 0.0), mask=cmask)
            tl.store(v_ptr + k * ncol + cols, tl.where(ice, vb + vint * sy, 0.0), mask=cmask)


def run(temp, thck, dsdx, dsdy, ubas, vbas, sigma, enhancement, thklim):
    nz = sigma.shape[0]
    ny, nx = thck.shape
    ncol = ny * nx
    u = torch.empty((nz, ny, nx), device=thck.device, dtype=thck.dtype)
    v = torch.empty((nz, ny, nx), device=thck.device, dtype=thck.dtype)
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(ncol, BLOCK)),)
    _sia_velocity[grid](temp, thck, dsdx, dsdy, ubas, vbas, sigma, u, v,
                        ncol, nz, float(enhancement), float(thklim), TWO_RHOG3,
                        PMLT_C=PMLT, GAS_R=GASCON, T0=TRPT, LNA_W=LN_A_WARM, LNA_C=LN_A_COLD,
                        QW=Q_WARM, QC=Q_COLD, BLOCK=BLOCK)
    return u, v
