"""QE struc_fact: strf[nt, G] = sum over the atoms of species nt of exp(-i 2 pi G . tau)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 1024
TWO_PI = tl.constexpr(6.283185307179586)


@triton.jit
def _strf_all_atoms(g, tau, ityp, strf_re, strf_im, nat, ntyp, ngm, stride_g, stride_s,
                    BLOCK: tl.constexpr, NT: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    types = tl.arange(0, NT)
    for blk in range(pid, tl.cdiv(ngm, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < ngm
        gx = tl.load(g + offs, mask=m, other=0.0)
        gy = tl.load(g + stride_g + offs, mask=m, other=0.0)
        gz = tl.load(g + 2 * stride_g + offs, mask=m, other=0.0)
        re = tl.zeros([NT, BLOCK], dtype=tl.float32)
        im = tl.zeros([NT, BLOCK], dtype=tl.float32)
        for na in range(nat):
            nt = tl.load(ityp + na)
            tx = tl.load(tau + 3 * na)
            ty = tl.load(tau + 3 * na + 1)
            tz = tl.load(tau + 3 * na + 2)
            t = gx * tx + gy * ty + gz * tz
            arg = TWO_PI * (t - tl.floor(t))
            mine = types[:, None] == nt
            re += tl.where(mine, tl.cos(arg)[None, :], 0.0)
            im -= tl.where(mine, tl.sin(arg)[None, :], 0.0)
        out = types[:, None] * stride_s + offs[None, :]
        om = (types[:, None] < ntyp) & m[None, :]
        tl.store(strf_re + out, re, mask=om)
        tl.store(strf_im + out, im, mask=om)


def run(g: torch.Tensor, tau: torch.Tensor, ityp: torch.Tensor, ntyp: int) -> tuple:
    ngm = g.shape[1]
    nat = tau.shape[0]
    strf_re = torch.empty((ntyp, ngm), device=g.device, dtype=g.dtype)
    strf_im = torch.empty((ntyp, ngm), device=g.device, dtype=g.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(ngm, BLOCK)),)
    _strf_all_atoms[grid](g, tau, ityp, strf_re, strf_im, nat, ntyp, ngm, g.stride(0),
                          strf_re.stride(0), BLOCK=BLOCK, NT=triton.next_power_of_2(ntyp))
    return strf_re, strf_im
