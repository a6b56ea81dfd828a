"""Delphes MomentumSmearing: log-normal pT smearing of track candidates stored as 8-float records."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _resolution(pt, abseta):
    # CMS-card form: sqrt(a^2 + (b*pT)^2) per |eta| region, pT > 0.1 GeV, |eta| <= 2.5
    r0 = tl.sqrt(0.006 * 0.006 + (1.3e-4 * pt) * (1.3e-4 * pt))
    r1 = tl.sqrt(0.010 * 0.010 + (1.7e-4 * pt) * (1.7e-4 * pt))
    r2 = tl.sqrt(0.025 * 0.025 + (3.1e-4 * pt) * (3.1e-4 * pt))
    res = tl.where(abseta <= 0.5, r0, tl.where(abseta <= 1.5, r1, tl.where(abseta <= 2.5, r2, 0.0)))
    return tl.where(pt > 0.1, res, 0.0)


@triton.jit
def _smear_momentum(cand, gauss, out, n, REC: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    f = tl.arange(0, REC)
    is_px = (f == 0)[None, :]
    is_py = (f == 1)[None, :]
    is_pz = (f == 2)[None, :]
    is_e = (f == 3)[None, :]
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        ok = i < n
        offs = i[:, None] * REC + f[None, :]
        rec = tl.load(cand + offs, mask=ok[:, None], other=1.0)
        px = tl.sum(tl.where(is_px, rec, 0.0), axis=1)
        py = tl.sum(tl.where(is_py, rec, 0.0), axis=1)
        pz = tl.sum(tl.where(is_pz, rec, 0.0), axis=1)
        g = tl.load(gauss + i, mask=ok, other=0.0)
        pt = tl.sqrt(px * px + py * py)
        p = tl.sqrt(pt * pt + pz * pz)
        abseta = tl.log((p + tl.abs(pz)) / pt)
        res = _resolution(pt, abseta)
        b = tl.sqrt(tl.log(1.0 + res * res))
        r = tl.exp(b * (g - 0.5 * b))
        smeared = tl.where(is_e, (p * r)[:, None], rec * r[:, None])
        rec = tl.where(is_px | is_py | is_pz | is_e, smeared, rec)
        tl.store(out + offs, rec, mask=ok[:, None])


def run(cands: torch.Tensor, gauss: torch.Tensor) -> torch.Tensor:
    n, rec = cands.shape
    out = torch.empty_like(cands)
    BLOCK = 256
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _smear_momentum[grid](cands, gauss, out, n, REC=rec, BLOCK=BLOCK)
    return out
