"""MODFLOW 6 NPF horizontal conductances (harmonic-mean condmean, CR / CC) of a layered DIS grid."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _transmissivity(kh, h, top, bot, convertible):
    thk = top - bot
    satthk = tl.minimum(tl.maximum(h - bot, 0.0), thk)
    return kh * tl.where(convertible, satthk, thk)


@triton.jit
def _condmean(t1, t2, w, cl1, cl2):
    prod = t1 * t2
    den = tl.where(prod > 0.0, t1 * cl2 + t2 * cl1, 1.0)
    return tl.where(prod > 0.0, w * prod / den, 0.0)


@triton.jit
def _npf_hcond(head, top, bot, k11, k22, delr, delc, icelltype, cr, cc, nlay, nrow, ncol,
               BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    plane = nrow * ncol
    nrb = tl.cdiv(nrow, BR)
    cols = tl.arange(0, BC)
    cm = cols < ncol
    cme = cols + 1 < ncol
    dr = tl.load(delr + cols, mask=cm, other=0.0)
    dre = tl.load(delr + cols + 1, mask=cme, other=0.0)
    for blk in range(pid, nlay * nrb, nprog):
        k = blk // nrb
        rb = blk - k * nrb
        convertible = tl.load(icelltype + k) != 0
        rows = rb * BR + tl.arange(0, BR)
        rm = rows < nrow
        rms = rows + 1 < nrow
        dc = tl.load(delc + rows, mask=rm, other=0.0)
        dcs = tl.load(delc + rows + 1, mask=rms, other=0.0)
        offs = k * plane + rows[:, None] * ncol + cols[None, :]
        m = rm[:, None] & cm[None, :]
        me = rm[:, None] & cme[None, :]
        ms = rms[:, None] & cm[None, :]

        h = tl.load(head + offs, mask=m, other=0.0)
        tp = tl.load(top + offs, mask=m, other=0.0)
        bt = tl.load(bot + offs, mask=m, other=0.0)
        # east neighbour (k, i, j+1): masked off in the last column, so t2 = 0 and the conductance is 0
        he = tl.load(head + offs + 1, mask=me, other=0.0)
        tpe = tl.load(top + offs + 1, mask=me, other=0.0)
        bte = tl.load(bot + offs + 1, mask=me, other=0.0)
        # south neighbour (k, i+1, j)
        hs = tl.load(head + offs + ncol, mask=ms, other=0.0)
        tps = tl.load(top + offs + ncol, mask=ms, other=0.0)
        bts = tl.load(bot + offs + ncol, mask=ms, other=0.0)

        t1 = _transmissivity(tl.load(k11 + offs, mask=m, other=0.0), h, tp, bt, convertible)
        t2 = _transmissivity(tl.load(k11 + offs + 1, mask=me, other=0.0), he, tpe, bte, convertible)
        c_r = _condmean(t1, t2, dc[:, None], 0.5 * dr[None, :], 0.5 * dre[None, :])
        tl.store(cr + offs, c_r, mask=m)

        t1 = _transmissivity(tl.load(k22 + offs, mask=m, other=0.0), h, tp, bt, convertible)
        t2 = _transmissivity(tl.load(k22 + offs + ncol, mask=ms, other=0.0), hs, tps, bts, convertible)
        c_c = _condmean(t1, t2, dr[None, :], 0.5 * dc[:, None], 0.5 * dcs[:, None])
        tl.store(cc + offs, c_c, mask=m)


def run(head, top, bot, k11, k22, delr, delc, icelltype):
    nlay, nrow, ncol = head.shape
    cr = torch.empty_like(head)
    cc = torch.empty_like(head)
    BC = triton.next_power_of_2(ncol)
    BR = max(1, 1024 // BC)
    grid = (min(_VECTOR_CORES, nlay * triton.cdiv(nrow, BR)),)
    _npf_hcond[grid](head, top, bot, k11, k22, delr, delc, icelltype, cr, cc, nlay, nrow, ncol,
                     BR=BR, BC=BC)
    return cr, cc
