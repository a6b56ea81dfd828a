"""WAM integrated parameters (Hs, Tm01, Tm02, directional spread) from 2-D wave spectra."""
import math

import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BP = 16
_BS = 256


@triton.jit
def _integrated_parameters(spec, fr, dfdth, ecos, esin, hs, tm01, tm02, spread, P, NSPEC,
                           BP: tl.constexpr, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for pb in range(pid, tl.cdiv(P, BP), nprog):
        rows = pb * BP + tl.arange(0, BP)
        rmask = rows < P
        m0 = tl.zeros([BP], dtype=tl.float32)
        m1 = tl.zeros([BP], dtype=tl.float32)
        m2 = tl.zeros([BP], dtype=tl.float32)
        a1 = tl.zeros([BP], dtype=tl.float32)
        b1 = tl.zeros([BP], dtype=tl.float32)
        for s0 in range(0, NSPEC, BS):
            cols = s0 + tl.arange(0, BS)
            cmask = cols < NSPEC
            e = tl.load(spec + rows[:, None] * NSPEC + cols[None, :],
                        mask=rmask[:, None] & cmask[None, :], other=0.0)
            w = tl.load(dfdth + cols, mask=cmask, other=0.0)
            f = tl.load(fr + cols, mask=cmask, other=0.0)
            c = tl.load(ecos + cols, mask=cmask, other=0.0)
            s = tl.load(esin + cols, mask=cmask, other=0.0)
            ew = e * w[None, :]
            m0 += tl.sum(ew, axis=1)
            m1 += tl.sum(ew * f[None, :], axis=1)
            m2 += tl.sum(ew * (f * f)[None, :], axis=1)
            a1 += tl.sum(ew * c[None, :], axis=1)
            b1 += tl.sum(ew * s[None, :], axis=1)
        m0 = tl.maximum(m0, 1e-20)
        r = tl.sqrt(a1 * a1 + b1 * b1) / m0
        tl.store(hs + rows, 4.0 * tl.sqrt(m0), mask=rmask)
        tl.store(tm01 + rows, m0 / m1, mask=rmask)
        tl.store(tm02 + rows, tl.sqrt(m0 / m2), mask=rmask)
        tl.store(spread + rows, tl.sqrt(tl.maximum(2.0 * (1.0 - r), 0.0)) * (180.0 / math.pi), mask=rmask)


def run(spec: torch.Tensor, fr: torch.Tensor, dfdth: torch.Tensor, ecos: torch.Tensor,
        esin: torch.Tensor) -> tuple:
    P, NSPEC = spec.shape
    hs, tm01, tm02, spread = (torch.empty(P, device=spec.device, dtype=spec.dtype) for _ in range(4))
    grid = (min(_VECTOR_CORES, triton.cdiv(P, _BP)),)
    _integrated_parameters[grid](spec, fr, dfdth, ecos, esin, hs, tm01, tm02, spread, P, NSPEC,
                                 BP=_BP, BS=_BS)
    return hs, tm01, tm02, spread
