"""DFN electrolyte concentration RHS (Bruggeman diffusion + reaction source) for a batch of experiments."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
F_CONST = tl.constexpr(96485.33212)


@triton.jit
def _deff(c, eps):
    cs = c * 1e-3
    return eps * tl.sqrt(eps) * ((8.794e-11 * cs - 3.972e-10) * cs + 4.862e-10)


@triton.jit
def _electrolyte_rhs_kernel(ce_ptr, aj_ptr, eps_ptr, dx_ptr, out_ptr, B, NX, t_plus,
                            BB: tl.constexpr, BX: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    x = tl.arange(0, BX)
    m = x < NX
    m_nxt = x + 1 < NX
    m_prv = m & (x >= 1)
    # ghost-padded mesh: node i at index i + 1, its neighbours at i and i + 2
    eps_prv = tl.load(eps_ptr + x, mask=m, other=1.0)[None, :]
    eps = tl.load(eps_ptr + x + 1, mask=m, other=1.0)[None, :]
    eps_nxt = tl.load(eps_ptr + x + 2, mask=m, other=1.0)[None, :]
    dx_prv = tl.load(dx_ptr + x, mask=m, other=1.0)[None, :]
    dx = tl.load(dx_ptr + x + 1, mask=m, other=1.0)[None, :]
    dx_nxt = tl.load(dx_ptr + x + 2, mask=m, other=1.0)[None, :]
    for blk in range(pid, tl.cdiv(B, BB), nprog):
        rows = blk * BB + tl.arange(0, BB)     # experiments of this tile
        rmask = rows[:, None] < B
        row = rows[:, None] * NX
        c = tl.load(ce_ptr + row + x[None, :], mask=rmask & m[None, :], other=1000.0)
        c_nxt = tl.load(ce_ptr + row + x[None, :] + 1, mask=rmask & m_nxt[None, :], other=1000.0)
        c_prv = tl.load(ce_ptr + row + x[None, :] - 1, mask=rmask & m_prv[None, :], other=1000.0)
        aj = tl.load(aj_ptr + row + x[None, :], mask=rmask & m[None, :], other=0.0)

        d = _deff(c, eps)
        flux_hi = -(d + _deff(c_nxt, eps_nxt)) * (c_nxt - c) / (dx + dx_nxt)
        flux_lo = -(_deff(c_prv, eps_prv) + d) * (c - c_prv) / (dx_prv + dx)
        flux_hi = tl.where((x == NX - 1)[None, :], 0.0, flux_hi)    # no flux through the current collectors
        flux_lo = tl.where((x == 0)[None, :], 0.0, flux_lo)
        rhs = (-(flux_hi - flux_lo) / dx + (1.0 - t_plus) * aj / F_CONST) / eps
        tl.store(out_ptr + row + x[None, :], rhs, mask=rmask & m[None, :])


def run(ce: torch.Tensor, aj: torch.Tensor, eps: torch.Tensor, dx: torch.Tensor,
        t_plus: float) -> torch.Tensor:
    B, NX = ce.shape
    out = torch.empty_like(ce)
    BX = triton.next_power_of_2(NX)
    BB = max(1, 1024 // BX)
    grid = (min(_VECTOR_CORES, triton.cdiv(B, BB)),)
    _electrolyte_rhs_kernel[grid](ce, aj, eps, dx, out, B, NX, t_plus, BB=BB, BX=BX)
    return out
