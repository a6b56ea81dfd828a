"""J2 plasticity radial return at the brick Gauss points (OpenSees nDMaterial J2Plasticity, eta = 0)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK_P = 256
_NEWTON_STEPS = 6


@triton.jit
def _j2_return_map(eps, eps_p, xi, sigma, eps_p_out, xi_out, n_pts, stride_c,
                   bulk, shear, sig0, sig_inf, delta, hard,
                   BLOCK_P: tl.constexpr, NEWTON: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    comp = tl.arange(0, 8)                     # Voigt xx yy zz xy yz zx, 2 rows of padding
    normal = (comp.to(tl.float32) < 3.0)[:, None]   # xx, yy, zz rows (float compare: no vector int compare)
    r23 = 0.816496580927726
    for blk in range(pid, tl.cdiv(n_pts, BLOCK_P), nprog):
        pts = blk * BLOCK_P + tl.arange(0, BLOCK_P)
        live = pts < n_pts
        mask = (comp < 6)[:, None] & live[None, :]
        offs = comp[:, None] * stride_c + pts[None, :]
        e = tl.load(eps + offs, mask=mask, other=0.0)
        ep = tl.load(eps_p + offs, mask=mask, other=0.0)
        x = tl.load(xi + pts, mask=live, other=0.0)
        ee = e - ep
        tr = tl.sum(tl.where(normal, ee, 0.0), axis=0)
        dev = tl.where(normal, ee - tr[None, :] / 3.0, 0.5 * ee)
        s_tr = 2.0 * shear * dev
        nrm = tl.sqrt(tl.sum(tl.where(normal, s_tr * s_tr, 2.0 * s_tr * s_tr), axis=0))
        q_n = sig0 + (sig_inf - sig0) * (1.0 - tl.exp(-delta * x)) + hard * x
        plastic = nrm - r23 * q_n > 0.0
        gam = tl.zeros((BLOCK_P,), dtype=tl.float32)
        for _ in range(NEWTON):
            xt = x + r23 * gam
            ex = tl.exp(-delta * xt)
            g = nrm - 2.0 * shear * gam - r23 * (sig0 + (sig_inf - sig0) * (1.0 - ex) + hard * xt)
            dg = -2.0 * shear - 0.6666666666666666 * (delta * (sig_inf - sig0) * ex + hard)
            gam = gam - g / dg
        gam = tl.where(plastic, gam, 0.0)
        n = s_tr / tl.maximum(nrm, 1e-30)[None, :]
        s = s_tr - (2.0 * shear * gam)[None, :] * n + tl.where(normal, bulk * tr[None, :], 0.0)
        ep_new = ep + gam[None, :] * tl.where(normal, n, 2.0 * n)
        tl.store(sigma + offs, s, mask=mask)
        tl.store(eps_p_out + offs, ep_new, mask=mask)
        tl.store(xi_out + pts, x + r23 * gam, mask=live)


def run(eps, eps_p, xi, bulk, shear, sig0, sig_inf, delta, hard):
    n_pts = eps.shape[1]
    sigma = torch.empty_like(eps)
    eps_p_out = torch.empty_like(eps_p)
    xi_out = torch.empty_like(xi)
    grid = (min(_VECTOR_CORES, triton.cdiv(n_pts, _BLOCK_P)),)
    _j2_return_map[grid](eps, eps_p, xi, sigma, eps_p_out, xi_out, n_pts, eps.stride(0),
                         bulk, shear, sig0, sig_inf, delta, hard,
                         BLOCK_P=_BLOCK_P, NEWTON=_NEWTON_STEPS)
    return sigma, eps_p_out, xi_out
