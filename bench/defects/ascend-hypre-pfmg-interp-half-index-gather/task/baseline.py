"""PFMG x-semicoarsening prolongation with the coarse-grid correction x_f += P e_c (hypre struct port)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _pfmg_interp_x(xf, ec, pw, pe, out, nlines, nxf, nxc, BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    c = tl.arange(0, BC)                     # coarse points of a line
    cm = c < nxc
    f = tl.arange(0, 2 * BC)                 # fine points of a line
    fm = f < nxf
    for line in range(pid, nlines, nprog):
        frow = line * nxf
        crow = line * nxc
        e0 = tl.load(ec + crow + c, mask=cm, other=0.0)
        e1 = tl.load(ec + crow + c + 1, mask=c + 1 < nxc, other=0.0)
        w0 = tl.load(pw + crow + c, mask=cm, other=0.0)
        w1 = tl.load(pe + crow + c, mask=cm, other=0.0)
        interp = w0 * e0 + w1 * e1
        ef = tl.interleave(e0, interp)       # fine order: e_f[2I] = e_c[I], e_f[2I + 1] = interp[I]
        xv = tl.load(xf + frow + f, mask=fm, other=0.0)
        tl.store(out + frow + f, xv + ef, mask=fm)


def run(xf: torch.Tensor, ec: torch.Tensor, pw: torch.Tensor, pe: torch.Tensor) -> torch.Tensor:
    nz, ny, nxf = xf.shape
    nxc = ec.shape[-1]
    out = torch.empty_like(xf)
    nlines = nz * ny
    BC = triton.next_power_of_2(nxc)
    grid = (min(_VECTOR_CORES, nlines),)
    _pfmg_interp_x[grid](xf, ec, pw, pe, out, nlines, nxf, nxc, BC=BC)
    return out
