"""HLLC Riemann solver (Athena++ hllc.cpp) for the x1 interfaces of the whole mesh."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_TINY = tl.constexpr(1.0e-20)


@triton.jit
def _hllc_flux(wl, wr, flx, n, stride_v, gamma, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    igm1 = 1.0 / (gamma - 1.0)
    gfac = (gamma + 1.0) / (2.0 * gamma)
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        # step 1: left / right primitive states
        dl = tl.load(wl + offs, mask=mask, other=1.0)
        ul = tl.load(wl + stride_v + offs, mask=mask, other=0.0)
        vl = tl.load(wl + 2 * stride_v + offs, mask=mask, other=0.0)
        zl = tl.load(wl + 3 * stride_v + offs, mask=mask, other=0.0)
        pl = tl.load(wl + 4 * stride_v + offs, mask=mask, other=1.0)
        dr = tl.load(wr + offs, mask=mask, other=1.0)
        ur = tl.load(wr + stride_v + offs, mask=mask, other=0.0)
        vr = tl.load(wr + 2 * stride_v + offs, mask=mask, other=0.0)
        zr = tl.load(wr + 3 * stride_v + offs, mask=mask, other=0.0)
        pr = tl.load(wr + 4 * stride_v + offs, mask=mask, other=1.0)
        # step 2: PVRS middle-state estimate
        cl = tl.sqrt(gamma * pl / dl)
        cr = tl.sqrt(gamma * pr / dr)
        el = pl * igm1 + 0.5 * dl * (ul * ul + vl * vl + zl * zl)
        er = pr * igm1 + 0.5 * dr * (ur * ur + vr * vr + zr * zr)
        rhoa = 0.5 * (dl + dr)
        ca = 0.5 * (cl + cr)
        pmid = 0.5 * (pl + pr + (ul - ur) * rhoa * ca)
        # steps 3-4: shock-corrected wave speeds
        ql = tl.where(pmid <= pl, 1.0, tl.sqrt(1.0 + gfac * tl.maximum(pmid / pl - 1.0, 0.0)))
        qr = tl.where(pmid <= pr, 1.0, tl.sqrt(1.0 + gfac * tl.maximum(pmid / pr - 1.0, 0.0)))
        al = ul - cl * ql
        ar = ur + cr * qr
        bp = tl.where(ar > 0.0, ar, _TINY)
        bm = tl.where(al < 0.0, al, -_TINY)
        # step 5: contact speed and pressure
        vxl = ul - al
        vxr = ur - ar
        tlv = pl + vxl * dl * ul
        trv = pr + vxr * dr * ur
        ml = dl * vxl
        mr = -(dr * vxr)
        am = (tlv - trv) / (ml + mr)
        cp = tl.maximum((ml * trv + mr * tlv) / (ml + mr), 0.0)
        # step 6: L/R fluxes along bm, bp
        vxl = ul - bm
        vxr = ur - bp
        # step 8: weights of the side the contact is on
        pos = am >= 0.0
        sl = tl.where(pos, am / (am - bm), 0.0)
        sr = tl.where(pos, 0.0, -am / (bp - am))
        sm = tl.where(pos, -bm / (am - bm), bp / (bp - am))
        # step 9: HLLC flux
        tl.store(flx + offs, sl * (dl * vxl) + sr * (dr * vxr), mask=mask)
        tl.store(flx + stride_v + offs,
                 sl * (dl * ul * vxl + pl) + sr * (dr * ur * vxr + pr) + sm * cp, mask=mask)
        tl.store(flx + 2 * stride_v + offs, sl * (dl * vl * vxl) + sr * (dr * vr * vxr), mask=mask)
        tl.store(flx + 3 * stride_v + offs, sl * (dl * zl * vxl) + sr * (dr * zr * vxr), mask=mask)
        tl.store(flx + 4 * stride_v + offs,
                 sl * (el * vxl + pl * ul) + sr * (er * vxr + pr * ur) + sm * cp * am, mask=mask)


def run(wl: torch.Tensor, wr: torch.Tensor, gamma: float) -> torch.Tensor:
    nvar, K, J, I1 = wl.shape
    flx = torch.empty_like(wl)
    n = K * J * I1
    BLOCK = 512
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _hllc_flux[grid](wl, wr, flx, n, wl.stride(0), gamma, BLOCK=BLOCK)
    return flx
