"""MOM6 tracer_vertdiff (no sinking): b1/d1/c1 Thomas solve of the implicit vertical mixing, on Ascend."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _top_level(h_old, ea, eb, tr, sfc_src, out, i, m, h_neglect):
    h_tr = tl.load(h_old + i, mask=m, other=1.0) + h_neglect
    b1 = 1.0 / (h_tr + tl.load(ea + i, mask=m, other=0.0) + tl.load(eb + i, mask=m, other=0.0))
    t = b1 * (h_tr * tl.load(tr + i, mask=m, other=0.0) + tl.load(sfc_src + i, mask=m, other=0.0))
    tl.store(out + i, t, mask=m)
    return t, b1, h_tr * b1


@triton.jit
def _eliminate_level(h_old, ea, eb, tr, btm_src, out, c1_buf, i, m, k, ncol, h_neglect, b1, d1, t_up,
                     BOTTOM: tl.constexpr):
    off = k * ncol + i
    tl.store(c1_buf + off, tl.load(eb + off - ncol, mask=m, other=0.0) * b1, mask=m)
    h_tr = tl.load(h_old + off, mask=m, other=1.0) + h_neglect
    ea_k = tl.load(ea + off, mask=m, other=0.0)
    b_denom_1 = h_tr + d1 * ea_k
    b1 = 1.0 / (b_denom_1 + tl.load(eb + off, mask=m, other=0.0))
    d1 = b_denom_1 * b1
    src = h_tr * tl.load(tr + off, mask=m, other=0.0)
    if BOTTOM:
        src += tl.load(btm_src + i, mask=m, other=0.0)
    t = b1 * (src + ea_k * t_up)
    tl.store(out + off, t, mask=m)
    return t, b1, d1


@triton.jit
def _vertdiff(h_old, ea, eb, tr, sfc_src, btm_src, out, c1_buf, nz, ncol, h_neglect, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(ncol, BLOCK), nprog):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        m = i < ncol
        t, b1, d1 = _top_level(h_old, ea, eb, tr, sfc_src, out, i, m, h_neglect)
        # forward elimination down the column: b1, d1 and tr(k-1) stay in registers
        for k in range(1, nz - 1):
            t, b1, d1 = _eliminate_level(h_old, ea, eb, tr, btm_src, out, c1_buf, i, m, k, ncol, h_neglect,
                                         b1, d1, t, False)
        t, b1, d1 = _eliminate_level(h_old, ea, eb, tr, btm_src, out, c1_buf, i, m, nz - 1, ncol, h_neglect,
                                     b1, d1, t, True)
        # back substitution up the column: tr(k+1) stays in registers
        t_dn = t
        for kk in range(0, nz - 1):
            off = (nz - 2 - kk) * ncol + i
            t_dn = tl.load(out + off, mask=m, other=0.0) + tl.load(c1_buf + off + ncol, mask=m, other=0.0) * t_dn
            tl.store(out + off, t_dn, mask=m)


def run(h_old, ea, eb, tr, sfc_src, btm_src, h_neglect):
    nz, ny, nx = tr.shape
    ncol = ny * nx
    out = torch.empty_like(tr)
    c1 = torch.empty_like(tr)
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(ncol, BLOCK)),)
    _vertdiff[grid](h_old, ea, eb, tr, sfc_src, btm_src, out, c1, nz, ncol, h_neglect, BLOCK=BLOCK)
    return out
