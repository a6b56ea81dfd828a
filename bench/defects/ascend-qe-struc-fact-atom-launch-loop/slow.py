"""QE struc_fact: strf[nt, G] = sum over the atoms of species nt of exp(-i 2 pi G . tau)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 1024
TWO_PI = tl.constexpr(6.283185307179586)


@triton.jit
def _strf_add_atom(g, tau, ityp, strf_re, strf_im, na, ngm, stride_g, stride_s,
                   BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nt = tl.load(ityp + na)
    tx = tl.load(tau + 3 * na)
    ty = tl.load(tau + 3 * na + 1)
    tz = tl.load(tau + 3 * na + 2)
    for blk in range(pid, tl.cdiv(ngm, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < ngm
        gx = tl.load(g + offs, mask=m, other=0.0)
        gy = tl.load(g + stride_g + offs, mask=m, other=0.0)
        gz = tl.load(g + 2 * stride_g + offs, mask=m, other=0.0)
        t = gx * tx + gy * ty + gz * tz
        arg = TWO_PI * (t - tl.floor(t))
        re = tl.load(strf_re + nt * stride_s + offs, mask=m, other=0.0)
        im = tl.load(strf_im + nt * stride_s + offs, mask=m, other=0.0)
        tl.store(strf_re + nt * stride_s + offs, re + tl.cos(arg), mask=m)
        tl.store(strf_im + nt * stride_s + offs, im - tl.sin(arg), mask=m)


def run(g: torch.Tensor, tau: torch.Tensor, ityp: torch.Tensor, ntyp: int) -> tuple:
    ngm = g.shape[1]
    nat = tau.shape[0]
    strf_re = torch.zeros((ntyp, ngm), device=g.device, dtype=g.dtype)
    strf_im = torch.zeros((ntyp, ngm), device=g.device, dtype=g.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(ngm, BLOCK)),)
    for na in range(nat):
        _strf_add_atom[grid](g, tau, ityp, strf_re, strf_im, na, ngm, g.stride(0), strf_re.stride(0),
                             BLOCK=BLOCK)
    return strf_re, strf_im
