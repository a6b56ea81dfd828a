"""Zonal potential <phi>(psi) and rms fluctuation per flux surface, Jacobian-weighted over theta and zeta."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BP = 8      # flux surfaces per block
BT = 256    # poloidal points per chunk


@triton.jit
def _flux_surface_avg(phi, jac, avg, rms, NZETA, NPSI, NTHETA,
                      BP: tl.constexpr, BT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    plane = NPSI * NTHETA
    for blk in range(pid, tl.cdiv(NPSI, BP), nprog):
        psi = blk * BP + tl.arange(0, BP)
        pmask = psi < NPSI
        sj = tl.zeros([BP], dtype=tl.float32)
        s1 = tl.zeros([BP], dtype=tl.float32)
        s2 = tl.zeros([BP], dtype=tl.float32)
        for t0 in range(0, NTHETA, BT):
            th = t0 + tl.arange(0, BT)
            mask = pmask[:, None] & (th < NTHETA)[None, :]
            off = psi[:, None] * NTHETA + th[None, :]
            j = tl.load(jac + off, mask=mask, other=0.0)
            sj += tl.sum(j, axis=1)
            for z in range(0, NZETA):
                p = tl.load(phi + z * plane + off, mask=mask, other=0.0)
                jp = j * p
                s1 += tl.sum(jp, axis=1)
                s2 += tl.sum(jp * p, axis=1)
        den = tl.maximum(sj * NZETA, 1e-30)   # surfaces past NPSI have sj = 0
        m1 = s1 / den
        m2 = s2 / den
        tl.store(avg + psi, m1, mask=pmask)
        tl.store(rms + psi, tl.sqrt(tl.maximum(m2 - m1 * m1, 0.0)), mask=pmask)


def run(phi: torch.Tensor, jac: torch.Tensor) -> tuple:
    NZETA, NPSI, NTHETA = phi.shape
    avg = torch.empty((NPSI,), device=phi.device, dtype=phi.dtype)
    rms = torch.empty((NPSI,), device=phi.device, dtype=phi.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(NPSI, BP)),)
    _flux_surface_avg[grid](phi, jac, avg, rms, NZETA, NPSI, NTHETA, BP=BP, BT=BT)
    return avg, rms
