"""DFN electrolyte concentration RHS (Bruggeman diffusion + reaction source) for a batch of experiments."""
import torch
import triton
import triton.language as tl

F_CONST = tl.constexpr(96485.33212)


@triton.jit
def _deff(c, eps):
    cs = c * 1e-3
    return eps * tl.sqrt(eps) * ((8.794e-11 * cs - 3.972e-10) * cs + 4.862e-10)


@triton.jit
def _electrolyte_rhs_kernel(ce_ptr, aj_ptr, eps_ptr, dx_ptr, out_ptr, b, NX, t_plus,
                            BX: tl.constexpr):
    x = tl.arange(0, BX)
    m = x < NX
    m_nxt = x + 1 < NX
    m_prv = m & (x >= 1)
    # ghost-padded mesh: node i at index i + 1, its neighbours at i and i + 2
    eps_prv = tl.load(eps_ptr + x, mask=m, other=1.0)
    eps = tl.load(eps_ptr + x + 1, mask=m, other=1.0)
    eps_nxt = tl.load(eps_ptr + x + 2, mask=m, other=1.0)
    dx_prv = tl.load(dx_ptr + x, mask=m, other=1.0)
    dx = tl.load(dx_ptr + x + 1, mask=m, other=1.0)
    dx_nxt = tl.load(dx_ptr + x + 2, mask=m, other=1.0)

    row = b * NX
    c = tl.load(ce_ptr + row + x, mask=m, other=1000.0)
    c_nxt = tl.load(ce_ptr + row + x + 1, mask=m_nxt, other=1000.0)
    c_prv = tl.load(ce_ptr + row + x - 1, mask=m_prv, other=1000.0)
    aj = tl.load(aj_ptr + row + x, mask=m, other=0.0)

    d = _deff(c, eps)
    flux_hi = -(d + _deff(c_nxt, eps_nxt)) * (c_nxt - c) / (dx + dx_nxt)
    flux_lo = -(_deff(c_prv, eps_prv) + d) * (c - c_prv) / (dx_prv + dx)
    flux_hi = tl.where(x == NX - 1, 0.0, flux_hi)    # no flux through the current collectors
    flux_lo = tl.where(x == 0, 0.0, flux_lo)
    rhs = (-(flux_hi - flux_lo) / dx + (1.0 - t_plus) * aj / F_CONST) / eps
    tl.store(out_ptr + row + x, rhs, mask=m)


def run(ce: torch.Tensor, aj: torch.Tensor, eps: torch.Tensor, dx: torch.Tensor,
        t_plus: float) -> torch.Tensor:
    B, NX = ce.shape
    out = torch.empty_like(ce)
    BX = triton.next_power_of_2(NX)
    for b in range(B):                         # one experiment of the batch study at a time
        _electrolyte_rhs_kernel[(1,)](ce, aj, eps, dx, out, b, NX, t_plus, BX=BX)
    return out
