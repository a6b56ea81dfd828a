"""RTE+RRTMGP longwave no-scattering solver (one angle) on [ngpt, nlay, ncol] optical properties."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_D = tl.constexpr(1.66)            # diffusivity secant of the single angle
_PI = tl.constexpr(math.pi)        # 2 pi x quadrature weight 0.5


@triton.jit
def _lw_noscat(tau, src, sfc_src, sfc_emis, flux_up, flux_dn, ngpt, nlay, ncol, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nblk = tl.cdiv(ncol, BC)
    for item in range(pid, ngpt * nblk, nprog):
        g = item // nblk
        cols = (item % nblk) * BC + tl.arange(0, BC)
        m = cols < ncol
        lay = g * (nlay * ncol) + cols
        lev = g * ((nlay + 1) * ncol) + cols
        # downward sweep from the top of the atmosphere
        i_dn = tl.zeros([BC], dtype=tl.float32)
        tl.store(flux_dn + lev, i_dn, mask=m)
        for k in range(0, nlay):
            t = tl.exp(-_D * tl.load(tau + lay + k * ncol, mask=m, other=0.0))
            b = tl.load(src + lay + k * ncol, mask=m, other=0.0)
            i_dn = t * i_dn + (1.0 - t) * b
            tl.store(flux_dn + lev + (k + 1) * ncol, _PI * i_dn, mask=m)
        # surface emission and reflection
        e = tl.load(sfc_emis + g * ncol + cols, mask=m, other=0.0)
        i_up = e * tl.load(sfc_src + g * ncol + cols, mask=m, other=0.0) + (1.0 - e) * i_dn
        tl.store(flux_up + lev + nlay * ncol, _PI * i_up, mask=m)
        # upward sweep back to the top
        for j in range(1, nlay + 1):
            k = nlay - j
            t = tl.exp(-_D * tl.load(tau + lay + k * ncol, mask=m, other=0.0))
            b = tl.load(src + lay + k * ncol, mask=m, other=0.0)
            i_up = t * i_up + (1.0 - t) * b
            tl.store(flux_up + lev + k * ncol, _PI * i_up, mask=m)


def run(tau, lay_src, sfc_src, sfc_emis):
    ngpt, nlay, ncol = tau.shape
    flux_up = torch.empty((ngpt, nlay + 1, ncol), device=tau.device, dtype=tau.dtype)
    flux_dn = torch.empty_like(flux_up)
    BC = min(1024, triton.next_power_of_2(ncol))
    grid = (min(_VECTOR_CORES, ngpt * triton.cdiv(ncol, BC)),)
    _lw_noscat[grid](tau, lay_src, sfc_src, sfc_emis, flux_up, flux_dn, ngpt, nlay, ncol, BC=BC)
    return flux_up, flux_dn
