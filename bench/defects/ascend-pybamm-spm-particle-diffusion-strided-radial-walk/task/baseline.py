"""SPM / DFN particle diffusion: finite-volume RHS in spherical coordinates, one particle per row."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
F_CONST = tl.constexpr(96485.33212)


@triton.jit
def _particle_rhs_kernel(c_ptr, j_ptr, d_ptr, out_ptr, P, NR, dr,
                         BP: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    inv_dr = 1.0 / dr
    cols = tl.arange(0, BR)                    # radial cells, contiguous in memory
    fi = cols.to(tl.float32)
    geom = -3.0 / (dr * (3.0 * fi * fi + 3.0 * fi + 1.0))
    for blk in range(pid, tl.cdiv(P, BP), nprog):
        p = blk * BP + tl.arange(0, BP)        # particles of this block, one per row
        pmask = p < P
        diff = tl.load(d_ptr + p, mask=pmask, other=0.0)
        jf = tl.load(j_ptr + p, mask=pmask, other=0.0) / F_CONST
        ptrs = c_ptr + p[:, None] * NR + cols[None, :]
        m = pmask[:, None] & (cols[None, :] < NR)
        c_cur = tl.load(ptrs, mask=m, other=0.0)
        c_nxt = tl.load(ptrs + 1, mask=pmask[:, None] & (cols[None, :] + 1 < NR), other=0.0)
        c_prv = tl.load(ptrs - 1, mask=m & (cols[None, :] >= 1), other=0.0)
        flux_hi = tl.where(cols[None, :] == NR - 1, jf[:, None],
                           -diff[:, None] * (c_nxt - c_cur) * inv_dr)
        flux_lo = tl.where(cols[None, :] == 0, 0.0, -diff[:, None] * (c_cur - c_prv) * inv_dr)
        area_hi = (fi + 1.0)[None, :] * (fi + 1.0)[None, :] * flux_hi
        area_lo = (fi * fi)[None, :] * flux_lo
        dcdt = geom[None, :] * (area_hi - area_lo)
        tl.store(out_ptr + p[:, None] * NR + cols[None, :], dcdt, mask=m)


def run(c: torch.Tensor, j: torch.Tensor, D: torch.Tensor, r_p: float) -> torch.Tensor:
    P, NR = c.shape
    out = torch.empty_like(c)
    BR = triton.next_power_of_2(NR)
    BP = max(1, 2048 // BR)
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BP)),)
    _particle_rhs_kernel[grid](c, j, D, out, P, NR, r_p / NR, BP=BP, BR=BR)
    return out
