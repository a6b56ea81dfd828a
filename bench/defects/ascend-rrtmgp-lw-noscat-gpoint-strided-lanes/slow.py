"""RTE+RRTMGP longwave no-scattering solver (one angle) on [ngpt, nlay, ncol] optical properties."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_D = tl.constexpr(1.66)            # diffusivity secant of the single angle
_PI = tl.constexpr(math.pi)        # 2 pi x quadrature weight 0.5


@triton.jit
def _lw_noscat(tau, src, sfc_src, sfc_emis, flux_up, flux_dn, ngpt, nlay, ncol, BG: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    gpt = tl.arange(0, BG)
    m = gpt < ngpt
    for c in range(pid, ncol, nprog):
        lay = gpt * (nlay * ncol) + c
        lev = gpt * ((nlay + 1) * ncol) + c
        # downward sweep from the top of the atmosphere
        i_dn = tl.zeros([BG], dtype=tl.float32)
        tl.store(flux_dn + lev, i_dn, mask=m)
        for k in range(0, nlay):
            t = tl.exp(-_D * tl.load(tau + lay + k * ncol, mask=m, other=0.0))
            b = tl.load(src + lay + k * ncol, mask=m, other=0.0)
            i_dn = t * i_dn + (1.0 - t) * b
            tl.store(flux_dn + lev + (k + 1) * ncol, _PI * i_dn, mask=m)
        # surface emission and reflection
        e = tl.load(sfc_emis + gpt * ncol + c, mask=m, other=0.0)
        i_up = e * tl.load(sfc_src + gpt * ncol + c, mask=m, other=0.0) + (1.0 - e) * i_dn
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
    BG = triton.next_power_of_2(ngpt)
    grid = (min(_VECTOR_CORES, ncol),)
    _lw_noscat[grid](tau, lay_src, sfc_src, sfc_emis, flux_up, flux_dn, ngpt, nlay, ncol, BG=BG)
    return flux_up, flux_dn
