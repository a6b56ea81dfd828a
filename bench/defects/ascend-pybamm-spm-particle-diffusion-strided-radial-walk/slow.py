"""SPM / DFN particle diffusion: finite-volume RHS in spherical coordinates, one particle per lane."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
F_CONST = tl.constexpr(96485.33212)


@triton.jit
def _particle_rhs_kernel(c_ptr, j_ptr, d_ptr, out_ptr, P, NR, dr,
                         BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    inv_dr = 1.0 / dr
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        p = blk * BP + tl.arange(0, BP)        # particles of this block, one per lane
        pmask = p < P
        diff = tl.load(d_ptr + p, mask=pmask, other=0.0)
        row = p * NR
        c_cur = tl.load(c_ptr + row, mask=pmask, other=0.0)
        area_lo = tl.zeros([BP], dtype=tl.float32)          # r_0^2 N_0 = 0 at the centre
        for i in range(0, NR - 1):
            c_nxt = tl.load(c_ptr + row + (i + 1), mask=pmask, other=0.0)
            fi = i * 1.0
            area_hi = -(fi + 1.0) * (fi + 1.0) * diff * (c_nxt - c_cur) * inv_dr
            dcdt = -3.0 * (area_hi - area_lo) / (dr * (3.0 * fi * fi + 3.0 * fi + 1.0))
            tl.store(out_ptr + row + i, dcdt, mask=pmask)
            area_lo = area_hi
            c_cur = c_nxt
        # surface cell: -D dc/dr = j / F on its outer edge
        fl = (NR - 1) * 1.0
        area_hi = (fl + 1.0) * (fl + 1.0) * tl.load(j_ptr + p, mask=pmask, other=0.0) / F_CONST
        dcdt = -3.0 * (area_hi - area_lo) / (dr * (3.0 * fl * fl + 3.0 * fl + 1.0))
        tl.store(out_ptr + row + (NR - 1), dcdt, mask=pmask)


def run(c: torch.Tensor, j: torch.Tensor, D: torch.Tensor, r_p: float) -> torch.Tensor:
    P, NR = c.shape
    out = torch.empty_like(c)
    BP = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BP)),)
    _particle_rhs_kernel[grid](c, j, D, out, P, NR, r_p / NR, BP=BP)
    return out
