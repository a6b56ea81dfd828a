"""CMAQ horizontal advection, x sweep: piecewise parabolic method (Colella-Woodward) on every row of every layer and species."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _slope(cm, c0, cp):
    # van Leer-limited centred slope, zero at local extrema
    dc = 0.5 * (cp - cm)
    dmin = tl.minimum(tl.abs(dc), tl.minimum(2.0 * tl.abs(c0 - cm), 2.0 * tl.abs(cp - c0)))
    lim = tl.where(dc >= 0.0, dmin, -dmin)
    return tl.where((cp - c0) * (c0 - cm) > 0.0, lim, 0.0)


@triton.jit
def _parabola(al, ar, c):
    # CW84 monotonicity: flatten at extrema, pull the far edge in where the parabola overshoots
    da = ar - al
    mid = c - 0.5 * (al + ar)
    flat = (ar - c) * (c - al) <= 0.0
    al2 = tl.where(flat, c, tl.where(da * mid > da * da / 6.0, 3.0 * c - 2.0 * ar, al))
    ar2 = tl.where(flat, c, tl.where(-da * da / 6.0 > da * mid, 3.0 * c - 2.0 * al, ar))
    return al2, ar2 - al2, 6.0 * (c - 0.5 * (al2 + ar2))


@triton.jit
def _face_flux(s, ar_l, da_l, a6_l, al_r, da_r, a6_r):
    # mean of the upwind parabola over the swept part of the cell, times the Courant number
    from_left = ar_l - 0.5 * s * (da_l - (1.0 - 2.0 * s / 3.0) * a6_l)
    from_right = al_r - 0.5 * s * (da_r + (1.0 + 2.0 * s / 3.0) * a6_r)
    return s * tl.where(s >= 0.0, from_left, from_right)


@triton.jit
def _hppm_x(conc, cour, out, NROWS, ROWS_PER_SPC, NX, BX: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, BX)
    m = j < NX
    jf = j.to(tl.float32)
    xlast = (NX - 1).to(tl.float32)
    for r in range(pid, NROWS, nprog):
        row = conc + r * NX
        srow = cour + (r % ROWS_PER_SPC) * (NX + 1)
        # stencil neighbours as shifted rows; the zero-gradient ghost cells repeat the edge cells
        c_first = tl.load(row)
        c_last = tl.load(row + NX - 1)
        cm3 = tl.where(jf < 3.0, c_first, tl.load(row + j - 3, mask=(j >= 3) & m, other=0.0))
        cm2 = tl.where(jf < 2.0, c_first, tl.load(row + j - 2, mask=(j >= 2) & m, other=0.0))
        cm1 = tl.where(jf < 1.0, c_first, tl.load(row + j - 1, mask=(j >= 1) & m, other=0.0))
        c0 = tl.load(row + j, mask=m, other=0.0)
        cp1 = tl.where(jf + 1.0 > xlast, c_last, tl.load(row + j + 1, mask=j + 1 < NX, other=0.0))
        cp2 = tl.where(jf + 2.0 > xlast, c_last, tl.load(row + j + 2, mask=j + 2 < NX, other=0.0))
        cp3 = tl.where(jf + 3.0 > xlast, c_last, tl.load(row + j + 3, mask=j + 3 < NX, other=0.0))
        s_w = tl.load(srow + j, mask=m, other=0.0)
        s_e = tl.load(srow + j + 1, mask=m, other=0.0)
        # limited slopes at cells j-2 .. j+2, edge values at faces j-3/2 .. j+3/2
        dm2 = _slope(cm3, cm2, cm1)
        dm1 = _slope(cm2, cm1, c0)
        d0 = _slope(cm1, c0, cp1)
        dp1 = _slope(c0, cp1, cp2)
        dp2 = _slope(cp1, cp2, cp3)
        e_m32 = 0.5 * (cm2 + cm1) - (dm1 - dm2) / 6.0
        e_m12 = 0.5 * (cm1 + c0) - (d0 - dm1) / 6.0
        e_p12 = 0.5 * (c0 + cp1) - (dp1 - d0) / 6.0
        e_p32 = 0.5 * (cp1 + cp2) - (dp2 - dp1) / 6.0
        # parabolas of cells j-1, j, j+1
        al_w, da_w, a6_w = _parabola(e_m32, e_m12, cm1)
        al_c, da_c, a6_c = _parabola(e_m12, e_p12, c0)
        al_e, da_e, a6_e = _parabola(e_p12, e_p32, cp1)
        f_w = _face_flux(s_w, al_w + da_w, da_w, a6_w, al_c, da_c, a6_c)
        f_e = _face_flux(s_e, al_c + da_c, da_c, a6_c, al_e, da_e, a6_e)
        tl.store(out + r * NX + j, c0 - (f_e - f_w), mask=m)


def run(conc: torch.Tensor, cour: torch.Tensor) -> torch.Tensor:
    NSPC, NLAY, NROW, NX = conc.shape
    out = torch.empty_like(conc)
    nrows = NSPC * NLAY * NROW
    BX = triton.next_power_of_2(NX)
    grid = (min(_VECTOR_CORES, nrows),)
    _hppm_x[grid](conc, cour, out, nrows, NLAY * NROW, NX, BX=BX)
    return out
