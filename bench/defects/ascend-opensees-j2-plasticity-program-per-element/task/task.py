"""J2 (von Mises) plasticity state update at the Gauss points of 8-node bricks (OpenSees nDMaterial J2Plasticity).

OpenSees' J2Plasticity (K, G, sigma_0, sigma_inf, delta, H; eta = 0) integrates the flow rule with a radial
return: for total strain eps and committed plastic strain eps_p, equivalent plastic strain xi,
    e     = dev(eps - eps_p),  s_tr = 2 G e,  ||s_tr|| (tensor norm),  p = K tr(eps - eps_p)
    q(xi) = sigma_0 + (sigma_inf - sigma_0) (1 - exp(-delta xi)) + H xi
    phi   = ||s_tr|| - sqrt(2/3) q(xi)
if phi > 0 the consistency parameter gamma solves ||s_tr|| - 2 G gamma - sqrt(2/3) q(xi + sqrt(2/3) gamma) = 0
(Newton from gamma = 0), n = s_tr / ||s_tr||, and
    sigma = s_tr - 2 G gamma n + p I,  eps_p += gamma n,  xi += sqrt(2/3) gamma.
Voigt order xx, yy, zz, xy, yz, zx with engineering shear strains (OpenSees' 3-D vector convention), so the
shear entries of the tensor are half the stored strains and the stored plastic shear grows by 2 gamma n_ij.

Layout: structure-of-arrays over Gauss points, point p = 8 * element + gauss_point:
    eps [6, P], eps_p [6, P], xi [P] fp32  ->  (sigma [6, P], eps_p_new [6, P], xi_new [P]) fp32
Stresses in GPa (steel: E = 200 GPa, nu = 0.3, sigma_0 = 250 MPa, sigma_inf = 400 MPa).
"""
import math

import torch

META = {
    "name": "j2_plasticity_update",
    "level": 2,
    "category": "fem-material",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"E": 40},
        "ragged": {"E": 45},
        "large": {"E": 64000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 256 Gauss points; each block "
                      "reads [8, 256] component tiles (6 rows valid) of eps and eps_p and a [256] xi vector, "
                      "does the trial state, a fixed 6-step Newton for gamma and the return in registers, and "
                      "writes sigma, eps_p and xi with one contiguous store each; no autotune.",
    "deterministic": True,
}
N_GAUSS = 8
# K, G, sigma_0, sigma_inf, delta, H  (GPa, -)
MATERIAL = (200.0 / (3.0 * (1.0 - 0.6)), 200.0 / 2.6, 0.25, 0.40, 20.0, 1.0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Total strain, committed plastic strain [6, P] and xi [P] (P = 8 E), then the six material constants."""
    n_pts = N_GAUSS * META["sizes"][size]["E"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    eps = 5e-4 * torch.randn(6, n_pts, generator=g, dtype=torch.float64)
    eps[3:] *= 2.0                                       # engineering shear
    eps_p = 1.5e-4 * torch.randn(6, n_pts, generator=g, dtype=torch.float64)
    eps_p[:3] -= eps_p[:3].mean(dim=0, keepdim=True)     # plastic flow is deviatoric
    eps_p[3:] *= 2.0
    xi = 2e-3 * torch.randn(n_pts, generator=g, dtype=torch.float64).abs()
    return (eps.to(dt).to(device), eps_p.to(dt).to(device), xi.to(dt).to(device), *MATERIAL)


def reference(eps, eps_p, xi, bulk, shear, sig0, sig_inf, delta, hard):
    e, ep, x = eps.double(), eps_p.double(), xi.double()
    r23 = math.sqrt(2.0 / 3.0)
    ee = e - ep
    tr = ee[:3].sum(dim=0)
    dev = torch.cat([ee[:3] - tr / 3.0, 0.5 * ee[3:]])
    s_tr = 2.0 * shear * dev
    nrm = torch.sqrt((s_tr[:3] ** 2).sum(0) + 2.0 * (s_tr[3:] ** 2).sum(0))

    def q(v):
        return sig0 + (sig_inf - sig0) * (1.0 - torch.exp(-delta * v)) + hard * v

    plastic = nrm - r23 * q(x) > 0
    gam = torch.zeros_like(x)
    for _ in range(50):
        xt = x + r23 * gam
        ex = torch.exp(-delta * xt)
        g = nrm - 2.0 * shear * gam - r23 * q(xt)
        dg = -2.0 * shear - (2.0 / 3.0) * (delta * (sig_inf - sig0) * ex + hard)
        gam = gam - g / dg
    gam = torch.where(plastic, gam, torch.zeros_like(gam))
    n = s_tr / nrm.clamp(min=1e-30)
    sigma = s_tr - 2.0 * shear * gam * n
    sigma[:3] += bulk * tr
    ep_new = ep + gam * torch.cat([n[:3], 2.0 * n[3:]])
    xi_new = x + r23 * gam
    return sigma.to(eps.dtype), ep_new.to(eps.dtype), xi_new.to(eps.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n_pts = N_GAUSS * META["sizes"][size]["E"]
    return {"bytes": 26 * 4 * n_pts, "flops": 160 * n_pts}
