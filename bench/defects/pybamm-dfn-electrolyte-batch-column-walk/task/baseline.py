"""DFN electrolyte concentration step with the Butler-Volmer source over a batch of parameter sets."""
import torch
import triton
import triton.language as tl

BLOCK_B = 8
FARADAY = tl.constexpr(96485.33212)
HALF_F_OVER_RT = tl.constexpr(0.5 * 96485.33212 / (8.314462618 * 298.15))
ONE_MINUS_T_PLUS = tl.constexpr(1.0 - 0.2594)
INV_CE_REF = tl.constexpr(1.0 / 1000.0)


@triton.jit
def _electrolyte_step(ce, cs, eta, eps, d_eff, area, j0_ref, k_scale, ce_out, j_out,
                      n_batch, n_x, dt, inv_dx2, BLOCK_B: tl.constexpr, BLOCK_X: tl.constexpr):
    b = tl.program_id(0) * BLOCK_B + tl.arange(0, BLOCK_B)
    x = tl.arange(0, BLOCK_X)
    in_mesh = x < n_x
    ok = (b < n_batch)[:, None] & in_mesh[None, :]
    offs = b[:, None] * n_x + x[None, :]
    has_lo = x > 0
    has_hi = x < n_x - 1
    # per-node coefficients, one row broadcast over the batch
    e = tl.load(eps + x, mask=in_mesh, other=1.0)
    d_mid = tl.load(d_eff + x, mask=in_mesh, other=0.0)
    d_lo = tl.load(d_eff + x - 1, mask=in_mesh & has_lo, other=0.0)
    d_hi = tl.load(d_eff + x + 1, mask=has_hi, other=0.0)
    av = tl.load(area + x, mask=in_mesh, other=0.0)
    j0r = tl.load(j0_ref + x, mask=in_mesh, other=0.0)
    face_lo = tl.where(has_lo, 0.5 * (d_lo + d_mid), 0.0)
    face_hi = tl.where(has_hi, 0.5 * (d_mid + d_hi), 0.0)
    # state of every batch member along its mesh (contiguous)
    c_mid = tl.load(ce + offs, mask=ok, other=1000.0)
    c_lo = tl.load(ce + offs - 1, mask=ok & has_lo[None, :], other=0.0)
    c_hi = tl.load(ce + offs + 1, mask=ok & has_hi[None, :], other=0.0)
    s = tl.load(cs + offs, mask=ok, other=0.5)
    h = tl.load(eta + offs, mask=ok, other=0.0)
    k = tl.load(k_scale + b, mask=b < n_batch, other=0.0)[:, None]
    # symmetric Butler-Volmer
    j0 = k * j0r[None, :] * tl.sqrt(c_mid * INV_CE_REF) * tl.sqrt(s) * tl.sqrt(1.0 - s)
    arg = HALF_F_OVER_RT * h
    j = j0 * (tl.exp(arg) - tl.exp(-arg))
    # flux divergence with zero flux at the current collectors
    div = (face_hi[None, :] * (c_hi - c_mid) - face_lo[None, :] * (c_mid - c_lo)) * inv_dx2
    c_new = c_mid + dt / e[None, :] * (div + ONE_MINUS_T_PLUS * av[None, :] * j / FARADAY)
    tl.store(ce_out + offs, c_new, mask=ok)
    tl.store(j_out + offs, j, mask=ok)


def run(ce, cs, eta, eps, d_eff, area, j0_ref, k_scale, dt, dx) -> tuple:
    n_batch, n_x = ce.shape
    ce_out = torch.empty_like(ce)
    j_out = torch.empty_like(ce)
    grid = (triton.cdiv(n_batch, BLOCK_B),)
    _electrolyte_step[grid](ce, cs, eta, eps, d_eff, area, j0_ref, k_scale, ce_out, j_out,
                            n_batch, n_x, dt, 1.0 / (dx * dx), BLOCK_B=BLOCK_B,
                            BLOCK_X=triton.next_power_of_2(n_x), num_warps=4)
    return ce_out, j_out
