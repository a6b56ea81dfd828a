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
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        ok = i < n
        src = cand + i * REC
        px = tl.load(src + 0, mask=ok, other=1.0)
        py = tl.load(src + 1, mask=ok, other=0.0)
        pz = tl.load(src + 2, mask=ok, other=0.0)
        vx = tl.load(src + 4, mask=ok, other=0.0)
        vy = tl.load(src + 5, mask=ok, other=0.0)
        vz = tl.load(src + 6, mask=ok, other=0.0)
        vt = tl.load(src + 7, mask=ok, other=0.0)
        g = tl.load(gauss + i, mask=ok, other=0.0)
        pt = tl.sqrt(px * px + py * py)
        p = tl.sqrt(pt * pt + pz * pz)
        abseta = tl.log((p + tl.abs(pz)) / pt)
        res = _resolution(pt, abseta)
        b = tl.sqrt(tl.log(1.0 + res * res))
        r = tl.exp(b * (g - 0.5 * b))
        dst = out + i * REC
        tl.store(dst + 0, px * r, mask=ok)
        tl.store(dst + 1, py * r, mask=ok)
        tl.store(dst + 2, pz * r, mask=ok)
        tl.store(dst + 3, p * r, mask=ok)
        tl.store(dst + 4, vx, mask=ok)
        tl.store(dst + 5, vy, mask=ok)
        tl.store(dst + 6, vz, mask=ok)
        tl.store(dst + 7, vt, mask=ok)


def run(cands: torch.Tensor, gauss: torch.Tensor) -> torch.Tensor:
    n, rec = cands.shape
    out = torch.empty_like(cands)
    BLOCK = 256
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _smear_momentum[grid](cands, gauss, out, n, REC=rec, BLOCK=BLOCK)
    return out
