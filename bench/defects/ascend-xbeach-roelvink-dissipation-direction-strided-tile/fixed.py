"""XBeach roelvink1 breaking: bulk E, H, thetamean and dissipation from the directional bins ee(x, y, theta)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 256


@triton.jit
def _roelvink_dissipation(ee, thet, hh, e_out, h_out, thm_out, d_out, dd, ncell, dtheta, rho_g, gamma,
                          two_alpha_over_t, n_break, NTHETA: tl.constexpr, NT_P2: tl.constexpr,
                          BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    th = tl.arange(0, NT_P2)
    tmask = th < NTHETA
    theta = tl.load(thet + th, mask=tmask, other=0.0)
    for blk in range(pid, tl.cdiv(ncell, BLOCK), nprog):
        cells = blk * BLOCK + tl.arange(0, BLOCK)
        cmask = cells < ncell
        mask = tmask[:, None] & cmask[None, :]
        # one tile per block: bins down the rows, cells along the contiguous axis
        e = tl.load(ee + th[:, None] * ncell + cells[None, :], mask=mask, other=0.0)
        esum = tl.sum(e, axis=0)
        etot = esum * dtheta
        hrms = tl.sqrt(8.0 * etot / rho_g)
        thm = tl.sum(e * theta[:, None], axis=0) / tl.maximum(esum, 1e-5)
        h = tl.load(hh + cells, mask=cmask, other=1.0)
        ratio = hrms / (gamma * h)
        qb = 1.0 - tl.exp(-tl.exp(n_break * tl.log(ratio)))
        diss = two_alpha_over_t * qb * etot
        share = diss / tl.maximum(etot, 1e-5)
        tl.store(dd + th[:, None] * ncell + cells[None, :], e * share[None, :], mask=mask)
        tl.store(e_out + cells, etot, mask=cmask)
        tl.store(h_out + cells, hrms, mask=cmask)
        tl.store(thm_out + cells, thm, mask=cmask)
        tl.store(d_out + cells, diss, mask=cmask)


def run(ee, thet, hh, dtheta, rho, g, gamma, alpha, n_break, trep):
    nt, ny, nx = ee.shape
    ncell = ny * nx
    etot = torch.empty((ny, nx), device=ee.device, dtype=ee.dtype)
    hrms = torch.empty_like(etot)
    thm = torch.empty_like(etot)
    diss = torch.empty_like(etot)
    dd = torch.empty_like(ee)
    grid = (min(_VECTOR_CORES, triton.cdiv(ncell, _BLOCK)),)
    _roelvink_dissipation[grid](ee, thet, hh, etot, hrms, thm, diss, dd, ncell, dtheta, rho * g, gamma,
                                2.0 * alpha / trep, n_break, NTHETA=nt, NT_P2=triton.next_power_of_2(nt),
                                BLOCK=_BLOCK)
    return etot, hrms, thm, diss, dd
