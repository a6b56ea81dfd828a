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
def _vertdiff_top(h_old, ea, eb, tr, sfc_src, out, b1_buf, d1_buf, ncol, h_neglect, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(ncol, BLOCK), nprog):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        m = i < ncol
        t, b1, d1 = _top_level(h_old, ea, eb, tr, sfc_src, out, i, m, h_neglect)
        tl.store(b1_buf + i, b1, mask=m)
        tl.store(d1_buf + i, d1, mask=m)


@triton.jit
def _vertdiff_down(h_old, ea, eb, tr, btm_src, out, c1_buf, b1_buf, d1_buf, k, ncol, h_neglect,
                   BOTTOM: tl.constexpr, BLOCK: tl.constexpr):
    # forward elimination of level k (1 <= k < nz); b1(i), d1(i) kept per column as in MOM6
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(ncol, BLOCK), nprog):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        m = i < ncol
        b1 = tl.load(b1_buf + i, mask=m, other=1.0)
        d1 = tl.load(d1_buf + i, mask=m, other=0.0)
        t_up = tl.load(out + (k - 1) * ncol + i, mask=m, other=0.0)
        t, b1, d1 = _eliminate_level(h_old, ea, eb, tr, btm_src, out, c1_buf, i, m, k, ncol, h_neglect,
                                     b1, d1, t_up, BOTTOM)
        tl.store(b1_buf + i, b1, mask=m)
        tl.store(d1_buf + i, d1, mask=m)


@triton.jit
def _vertdiff_up(out, c1_buf, k, ncol, BLOCK: tl.constexpr):
    # back substitution of level k (0 <= k < nz - 1)
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(ncol, BLOCK), nprog):
        i = blk * BLOCK + tl.arange(0, BLOCK)
        m = i < ncol
        off = k * ncol + i
        t_dn = tl.load(out + off + ncol, mask=m, other=0.0)
        t_dn = tl.load(out + off, mask=m, other=0.0) + tl.load(c1_buf + off + ncol, mask=m, other=0.0) * t_dn
        tl.store(out + off, t_dn, mask=m)


def run(h_old, ea, eb, tr, sfc_src, btm_src, h_neglect):
    nz, ny, nx = tr.shape
    ncol = ny * nx
    out = torch.empty_like(tr)
    c1 = torch.empty_like(tr)
    b1 = torch.empty((ncol,), device=tr.device, dtype=tr.dtype)
    d1 = torch.empty((ncol,), device=tr.device, dtype=tr.dtype)
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(ncol, BLOCK)),)
    _vertdiff_top[grid](h_old, ea, eb, tr, sfc_src, out, b1, d1, ncol, h_neglect, BLOCK=BLOCK)
    for k in range(1, nz):
        _vertdiff_down[grid](h_old, ea, eb, tr, btm_src, out, c1, b1, d1, k, ncol, h_neglect,
                             BOTTOM=(k == nz - 1), BLOCK=BLOCK)
    for k in range(nz - 2, -1, -1):
        _vertdiff_up[grid](out, c1, k, ncol, BLOCK=BLOCK)
    return out
