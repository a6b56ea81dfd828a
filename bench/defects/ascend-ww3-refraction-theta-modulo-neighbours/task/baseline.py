"""WW3 W3KTP1-style refraction: first-order upwind step of the spectrum in directional space."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_KDMAX = 30.0


@triton.jit
def _refraction_pr1(spec, out, depth, dddx, dddy, wn, sig, P, NK, NTH, dth, dtdth,
                    KDMAX: tl.constexpr, BK: tl.constexpr, BTH: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    kk = tl.arange(0, BK)
    jj = tl.arange(0, BTH)
    kmask = kk < NK
    jmask = jj < NTH
    mask = kmask[:, None] & jmask[None, :]
    sg = tl.load(sig + kk, mask=kmask, other=0.0)
    # face angles theta_j + dtheta/2 and theta_j - dtheta/2
    thp = (jj.to(tl.float32) + 0.5) * dth
    thm = thp - dth
    sinp = tl.sin(thp)
    cosp = tl.cos(thp)
    sinm = tl.sin(thm)
    cosm = tl.cos(thm)
    for p in range(pid, P, nprog):
        d = tl.load(depth + p)
        gx = tl.load(dddx + p)
        gy = tl.load(dddy + p)
        k = tl.load(wn + p * NK + kk, mask=kmask, other=1.0)
        kd = tl.minimum(2.0 * k * d, KDMAX)
        frk = sg * 2.0 / (tl.exp(kd) - tl.exp(-kd))                    # sigma / sinh(2kd)
        cp = frk[:, None] * (sinp * gx - cosp * gy)[None, :]
        cm = frk[:, None] * (sinm * gx - cosm * gy)[None, :]
        rows = spec + p * NK * NTH + kk[:, None] * NTH
        e = tl.load(rows + jj[None, :], mask=mask, other=0.0)
        # periodic neighbours: the same rows shifted by one column, plus the wrapped column
        em = tl.load(rows + (jj - 1)[None, :], mask=kmask[:, None] & ((jj >= 1) & jmask)[None, :], other=0.0)
        em_wrap = tl.load(rows + (NTH - 1), mask=kmask[:, None], other=0.0)
        em = tl.where((jj == 0)[None, :], em_wrap, em)
        ep = tl.load(rows + (jj + 1)[None, :], mask=kmask[:, None] & (jj + 1 < NTH)[None, :], other=0.0)
        ep_wrap = tl.load(rows, mask=kmask[:, None], other=0.0)
        ep = tl.where((jj == NTH - 1)[None, :], ep_wrap, ep)
        fp = tl.maximum(cp, 0.0) * e + tl.minimum(cp, 0.0) * ep
        fm = tl.maximum(cm, 0.0) * em + tl.minimum(cm, 0.0) * e
        tl.store(out + p * NK * NTH + kk[:, None] * NTH + jj[None, :], e - dtdth * (fp - fm), mask=mask)


def run(spec: torch.Tensor, depth: torch.Tensor, dddx: torch.Tensor, dddy: torch.Tensor,
        wn: torch.Tensor, sig: torch.Tensor, dth: float, dtdth: float) -> torch.Tensor:
    P, NK, NTH = spec.shape
    out = torch.empty_like(spec)
    BK = triton.next_power_of_2(NK)
    BTH = triton.next_power_of_2(NTH)
    grid = (min(_VECTOR_CORES, P),)
    _refraction_pr1[grid](spec, out, depth, dddx, dddy, wn, sig, P, NK, NTH, dth, dtdth,
                          KDMAX=_KDMAX, BK=BK, BTH=BTH)
    return out
