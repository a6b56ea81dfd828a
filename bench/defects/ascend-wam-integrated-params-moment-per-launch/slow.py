"""WAM integrated parameters (Hs, Tm01, Tm02, directional spread) from 2-D wave spectra."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BP = 16
_BS = 256
# which weighted moment of the spectrum a launch integrates
M0, M1, M2, A1, B1 = 0, 1, 2, 3, 4


@triton.jit
def _spectral_moment(spec, fr, dfdth, ecos, esin, out, P, NSPEC,
                     KIND: tl.constexpr, BP: tl.constexpr, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for pb in range(pid, tl.cdiv(P, BP), nprog):
        rows = pb * BP + tl.arange(0, BP)
        rmask = rows < P
        acc = tl.zeros([BP], dtype=tl.float32)
        for s0 in range(0, NSPEC, BS):
            cols = s0 + tl.arange(0, BS)
            cmask = cols < NSPEC
            e = tl.load(spec + rows[:, None] * NSPEC + cols[None, :],
                        mask=rmask[:, None] & cmask[None, :], other=0.0)
            w = tl.load(dfdth + cols, mask=cmask, other=0.0)
            if KIND == 1:
                w = w * tl.load(fr + cols, mask=cmask, other=0.0)
            elif KIND == 2:
                f = tl.load(fr + cols, mask=cmask, other=0.0)
                w = w * f * f
            elif KIND == 3:
                w = w * tl.load(ecos + cols, mask=cmask, other=0.0)
            elif KIND == 4:
                w = w * tl.load(esin + cols, mask=cmask, other=0.0)
            acc += tl.sum(e * w[None, :], axis=1)
        tl.store(out + rows, acc, mask=rmask)


@triton.jit
def _bulk_parameters(mom0, mom1, mom2, moma1, momb1, hs, tm01, tm02, spread, P, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for pb in range(pid, tl.cdiv(P, BP), nprog):
        rows = pb * BP + tl.arange(0, BP)
        rmask = rows < P
        m0 = tl.maximum(tl.load(mom0 + rows, mask=rmask, other=1.0), 1e-20)
        m1 = tl.load(mom1 + rows, mask=rmask, other=1.0)
        m2 = tl.load(mom2 + rows, mask=rmask, other=1.0)
        a1 = tl.load(moma1 + rows, mask=rmask, other=0.0)
        b1 = tl.load(momb1 + rows, mask=rmask, other=0.0)
        r = tl.sqrt(a1 * a1 + b1 * b1) / m0
        tl.store(hs + rows, 4.0 * tl.sqrt(m0), mask=rmask)
        tl.store(tm01 + rows, m0 / m1, mask=rmask)
        tl.store(tm02 + rows, tl.sqrt(m0 / m2), mask=rmask)
        tl.store(spread + rows, tl.sqrt(tl.maximum(2.0 * (1.0 - r), 0.0)) * (180.0 / math.pi), mask=rmask)


def spectral_moment(spec, fr, dfdth, ecos, esin, out, kind):
    """One weighted integral of every point's spectrum: out[p] = sum_bins E w_kind df dtheta."""
    P, NSPEC = spec.shape
    grid = (min(_VECTOR_CORES, triton.cdiv(P, _BP)),)
    _spectral_moment[grid](spec, fr, dfdth, ecos, esin, out, P, NSPEC, KIND=kind, BP=_BP, BS=_BS)


def run(spec: torch.Tensor, fr: torch.Tensor, dfdth: torch.Tensor, ecos: torch.Tensor,
        esin: torch.Tensor) -> tuple:
    P, NSPEC = spec.shape
    mom = torch.empty((5, P), device=spec.device, dtype=torch.float32)
    for kind in (M0, M1, M2, A1, B1):
        spectral_moment(spec, fr, dfdth, ecos, esin, mom[kind], kind)
    hs, tm01, tm02, spread = (torch.empty(P, device=spec.device, dtype=spec.dtype) for _ in range(4))
    grid = (min(_VECTOR_CORES, triton.cdiv(P, 256)),)
    _bulk_parameters[grid](mom[M0], mom[M1], mom[M2], mom[A1], mom[B1], hs, tm01, tm02, spread, P, BP=256)
    return hs, tm01, tm02, spread
