"""SWAN GEN3 KOMEN source terms: Snyder/Komen wind input plus Komen whitecapping per spectral bin."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BP = 64


@triton.jit
def _komen_source(spec, sig, dsig, ecos, esin, ustar, wdir, out, P, NK, NTH, dth,
                  GRAV: tl.constexpr, RHOAW: tl.constexpr, CDS: tl.constexpr, SPM: tl.constexpr,
                  BP: tl.constexpr, BTH: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    jj = tl.arange(0, BTH)
    jmask = jj < NTH
    cth = tl.load(ecos + jj, mask=jmask, other=0.0)
    sth = tl.load(esin + jj, mask=jmask, other=0.0)
    # work items are (block of points, frequency row), spread over the cores
    for item in range(pid, tl.cdiv(P, BP) * NK, nprog):
        pb = item // NK
        krow = item % NK
        rows = pb * BP + tl.arange(0, BP)
        rmask = rows < P
        mask = rmask[:, None] & jmask[None, :]
        base = spec + rows[:, None] * (NK * NTH) + jj[None, :]
        # mean quantities of each point's spectrum: E_tot, sum E/sigma, sum E/sqrt(k)
        etot = tl.zeros([BP], dtype=tl.float32)
        einv_sig = tl.zeros([BP], dtype=tl.float32)
        einv_k = tl.zeros([BP], dtype=tl.float32)
        for k in range(NK):
            e = tl.load(base + k * NTH, mask=mask, other=0.0)
            sg = tl.load(sig + k)
            kw = sg * sg / GRAV                               # deep-water wavenumber
            ek = tl.sum(e, axis=1) * (tl.load(dsig + k) * dth)
            etot += ek
            einv_sig += ek / sg
            einv_k += ek / tl.sqrt(kw)
        etot = tl.maximum(etot, 1e-20)
        sig_m = etot / einv_sig
        k_m = etot / einv_k
        k_m = k_m * k_m
        stp = k_m * tl.sqrt(etot) / SPM
        stp2 = stp * stp
        dsfac = CDS * stp2 * stp2 * sig_m / k_m          # S_ds = -dsfac * k * E
        us = tl.load(ustar + rows, mask=rmask, other=0.0)
        wd = tl.load(wdir + rows, mask=rmask, other=0.0)
        cosd = cth[None, :] * tl.cos(wd)[:, None] + sth[None, :] * tl.sin(wd)[:, None]
        # wind input and whitecapping of this item's frequency row
        e = tl.load(base + krow * NTH, mask=mask, other=0.0)
        sg = tl.load(sig + krow)
        kw = sg * sg / GRAV                                   # deep-water wavenumber
        beta = 0.25 * RHOAW * (28.0 * (us * (kw / sg))[:, None] * cosd - 1.0)
        beta = tl.maximum(beta, 0.0)
        src = (beta * sg - (dsfac * kw)[:, None]) * e
        tl.store(out + rows[:, None] * (NK * NTH) + krow * NTH + jj[None, :], src, mask=mask)


def run(spec: torch.Tensor, sig: torch.Tensor, dsig: torch.Tensor, ecos: torch.Tensor,
        esin: torch.Tensor, ustar: torch.Tensor, wdir: torch.Tensor, dth: float) -> torch.Tensor:
    P, NK, NTH = spec.shape
    out = torch.empty_like(spec)
    BTH = triton.next_power_of_2(NTH)
    grid = (min(_VECTOR_CORES, triton.cdiv(P, _BP) * NK),)
    _komen_source[grid](spec, sig, dsig, ecos, esin, ustar, wdir, out, P, NK, NTH, dth,
                        GRAV=9.806, RHOAW=1.225 / 1025.0, CDS=2.36e-5, SPM=math.sqrt(3.02e-3), BP=_BP, BTH=BTH)
    return out
