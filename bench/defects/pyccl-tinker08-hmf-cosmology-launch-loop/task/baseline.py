"""Tinker08 halo mass function for a batch of cosmologies: sigma(M) and dln sigma/dln M from P(k), then f(sigma)."""
import math

import torch
import triton
import triton.language as tl

BLOCK_M = 32
BLOCK_K = 64
RHO_CRIT = tl.constexpr(2.77536627e11)           # h^2 M_sun / Mpc^3
LN10 = tl.constexpr(math.log(10.0))
LN_3_OVER_4PI = tl.constexpr(math.log(3.0 / (4.0 * math.pi)))
INV_2PI2 = tl.constexpr(1.0 / (2.0 * math.pi ** 2))
LN_LN10 = tl.constexpr(math.log(math.log(10.0)))
TINKER_ALPHA = tl.constexpr(10.0 ** (-(0.75 / math.log10(200.0 / 75.0)) ** 1.2))


@triton.jit
def _tophat(x):
    """W(x) = 3 (sin x - x cos x) / x^3 and W'(x); Taylor series below x = 0.5 (cancellation)."""
    x2 = x * x
    w_small = 1.0 + x2 * (-0.1 + x2 * (1.0 / 280.0 - x2 * (1.0 / 15120.0)))
    dw_small = x * (-0.2 + x2 * (1.0 / 70.0 - x2 * (1.0 / 2520.0)))
    sn = tl.sin(x)
    cs = tl.cos(x)
    w_big = 3.0 * (sn - x * cs) / (x2 * x)
    dw_big = 3.0 * ((x2 - 3.0) * sn + 3.0 * x * cs) / (x2 * x2)
    small = x < 0.5
    return tl.where(small, w_small, w_big), tl.where(small, dw_small, dw_big)


@triton.jit
def _tinker08_hmf(pk, omega_m, hubble, redshift, log10m, out, n_m, n_k, lnk0, dlnk,
                  BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    c = tl.program_id(0)
    m_idx = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    m_ok = m_idx < n_m
    om = tl.load(omega_m + c)
    h = tl.load(hubble + c)
    z = tl.load(redshift + c)
    rho = om * RHO_CRIT * h * h
    lnm = tl.load(log10m + m_idx, mask=m_ok, other=12.0) * LN10
    r = tl.exp((lnm + LN_3_OVER_4PI - tl.log(rho)) / 3.0)
    s2 = tl.zeros([BLOCK_M], dtype=tl.float32)
    ds2 = tl.zeros([BLOCK_M], dtype=tl.float32)
    for k0 in range(0, n_k, BLOCK_K):
        k_idx = k0 + tl.arange(0, BLOCK_K)
        k_ok = k_idx < n_k
        k = tl.exp(lnk0 + k_idx * dlnk)
        wt = tl.where((k_idx == 0) | (k_idx == n_k - 1), 0.5 * dlnk, dlnk)
        p = tl.load(pk + c * n_k + k_idx, mask=k_ok, other=0.0)
        d2 = tl.where(k_ok, p * k * k * k * wt * INV_2PI2, 0.0)
        x = r[:, None] * k[None, :]
        w, dw = _tophat(x)
        s2 += tl.sum(d2[None, :] * w * w, axis=1)
        ds2 += tl.sum(d2[None, :] * (2.0 * w * dw * k[None, :]), axis=1)
    dlns_dlnm = r * ds2 / (6.0 * s2)
    lzp1 = tl.log(1.0 + z)
    amp = 0.186 * tl.exp(-0.14 * lzp1)
    aa = 1.47 * tl.exp(-0.06 * lzp1)
    bb = 2.57 * tl.exp(-TINKER_ALPHA * lzp1)
    ln_sigma = 0.5 * tl.log(s2)
    lnf = tl.log(amp) + tl.log(tl.exp(-aa * (ln_sigma - tl.log(bb))) + 1.0) - 1.19 / s2
    lnn = lnf + tl.log(rho) - lnm + LN_LN10 + tl.log(-dlns_dlnm)
    tl.store(out + c * n_m + m_idx, lnn / LN10, mask=m_ok)


def run(pk, omega_m, h, z, log10m, lnk0, dlnk):
    n_c, n_k = pk.shape
    n_m = log10m.shape[0]
    out = torch.empty(n_c, n_m, device=pk.device, dtype=torch.float32)
    grid = (n_c, triton.cdiv(n_m, BLOCK_M))
    _tinker08_hmf[grid](pk, omega_m, h, z, log10m, out, n_m, n_k, lnk0, dlnk,
                        BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K, num_warps=4)
    return out
