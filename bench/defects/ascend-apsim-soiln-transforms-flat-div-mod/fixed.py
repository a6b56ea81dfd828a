"""Daily soil mineral-N transformations (urea hydrolysis, nitrification, denitrification) per cell and layer (Ascend)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 1024


@triton.jit
def _soil_n_transform(urea, nh4, no3, sw, ll15, dul, sat, st, oc, bd, ph, dlayer,
                      urea_out, nh4_out, no3_out, N, L,
                      BLOCK_N: tl.constexpr, BLOCK_L: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    layer = tl.arange(0, BLOCK_L)
    lmask = layer < L
    dl = tl.load(dlayer + layer, mask=lmask, other=100.0)[None, :]
    for blk in range(pid, tl.cdiv(N, BLOCK_N), nprog):
        # a [cells, layers] tile of the cell-major state: pH broadcast along the layers, dlayer along the cells
        cell = blk * BLOCK_N + tl.arange(0, BLOCK_N)
        cmask = cell < N
        offs = cell[:, None] * L + layer[None, :]
        mask = cmask[:, None] & lmask[None, :]
        p = tl.load(ph + cell, mask=cmask, other=7.0)[:, None]

        u = tl.load(urea + offs, mask=mask, other=0.0)
        a = tl.load(nh4 + offs, mask=mask, other=0.0)
        n = tl.load(no3 + offs, mask=mask, other=0.0)
        w = tl.load(sw + offs, mask=mask, other=0.0)
        lo = tl.load(ll15 + offs, mask=mask, other=0.0)
        du = tl.load(dul + offs, mask=mask, other=1.0)
        sa = tl.load(sat + offs, mask=mask, other=2.0)
        t = tl.load(st + offs, mask=mask, other=0.0)
        c = tl.load(oc + offs, mask=mask, other=0.0)
        b = tl.load(bd + offs, mask=mask, other=1.0)
        conv = b * dl * 0.01

        # urea hydrolysis (DSSAT)
        ak = tl.maximum(-1.12 + 1.31 * c + 0.203 * p - 0.155 * c * p, 0.25)
        avail = (w - lo) / (du - lo)
        swf_h = tl.minimum(tl.maximum(avail + 0.2, 0.0), 1.0)
        tf_h = tl.minimum(tl.maximum(t * 0.025 + 0.2, 0.0), 1.0)
        hyd = tl.minimum(u, ak * tl.minimum(swf_h, tf_h) * u)

        # nitrification (APSIM)
        wfi = tl.where(w < du, tl.maximum(avail, 0.0), 1.0 + (w - du) / (sa - du))
        wf = tl.minimum(tl.maximum(tl.minimum(tl.minimum(wfi * 4.0, 1.0), 2.0 - wfi), 0.0), 1.0)
        phf = tl.minimum(tl.maximum(tl.minimum(tl.minimum((p - 4.5) / 1.5, 1.0), 9.0 - p), 0.0), 1.0)
        tf = tl.minimum(tl.maximum((t - 5.0) * 0.04, 0.0), 1.0)
        a_ppm = a / conv
        nit = 40.0 * a_ppm / (a_ppm + 90.0) * tl.minimum(wf, tf) * phf * conv
        nit = tl.minimum(a + hyd, nit)

        # denitrification (APSIM)
        active_c = 31.0 * c + 24.5
        wfd = tl.minimum(tl.maximum((w - du) / (sa - du), 0.0), 1.0)
        tfd = tl.minimum(0.1 * tl.exp(0.046 * t), 1.0)
        den = tl.minimum(n, 0.0006 * active_c * wfd * tfd * n)

        tl.store(urea_out + offs, u - hyd, mask=mask)
        tl.store(nh4_out + offs, a + hyd - nit, mask=mask)
        tl.store(no3_out + offs, n + nit - den, mask=mask)


def run(urea, nh4, no3, sw, ll15, dul, sat, st, oc, bd, ph, dlayer):
    N, L = urea.shape
    urea_out = torch.empty_like(urea)
    nh4_out = torch.empty_like(nh4)
    no3_out = torch.empty_like(no3)
    BLOCK_L = triton.next_power_of_2(L)
    BLOCK_N = max(1, _BLOCK // BLOCK_L)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BLOCK_N)),)
    _soil_n_transform[grid](urea, nh4, no3, sw, ll15, dul, sat, st, oc, bd, ph, dlayer,
                            urea_out, nh4_out, no3_out, N, L, BLOCK_N=BLOCK_N, BLOCK_L=BLOCK_L)
    return urea_out, nh4_out, no3_out
