"""Tinker et al. (2008) halo mass function for a batch of cosmologies (CCL MassFuncTinker08, Delta = 200m).

For every cosmology c (linear P_c(k) at its redshift z_c on a uniform ln k grid, Omega_m, h) and every
halo mass M (M_sun, log-spaced): the top-hat radius R = (3 M / (4 pi rho_m))^(1/3) with
rho_m = Omega_m * 2.775e11 h^2 M_sun / Mpc^3 (comoving), the variance (CCL's sigma(R) integral)
sigma^2 = sum_k dlnk k^3 P(k) / (2 pi^2) W(kR)^2 with W(x) = 3 (sin x - x cos x) / x^3 (trapezoid
weights in ln k; W and W' from their Taylor series below x = 0.5, as CCL's w_tophat does at small x),
dsigma^2/dR = sum_k dlnk k^3 P(k) / (2 pi^2) 2 W(kR) W'(kR) k, dln sigma/dln M = R dsigma^2/dR / (6 sigma^2),
and the Tinker08 multiplicity f(sigma) = A [(sigma / b)^-a + 1] exp(-c / sigma^2) with A = 0.186 (1+z)^-0.14,
a = 1.47 (1+z)^-0.06, b = 2.57 (1+z)^-alpha, log10 alpha = -(0.75 / log10(200 / 75))^1.2, c = 1.19.
Returns log10(dn/dlog10M) = log10(f(sigma) rho_m / M ln(10) |dln sigma / dln M|) in Mpc^-3,
fp32 [N_COSMO, N_M] (the log keeps the exp(-c/sigma^2) cut-off of cluster masses representable).
"""
import math

import torch

META = {
    "name": "tinker08_mass_function",
    "level": 2,
    "category": "cosmology",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N_COSMO": 3, "N_M": 24, "N_K": 96},
        "ragged": {"N_COSMO": 5, "N_M": 37, "N_K": 113},
        "large": {"N_COSMO": 256, "N_M": 512, "N_K": 1024},
    },
    "baseline_notes": "Grid (cosmologies, mass blocks of 32); each program walks the k grid in blocks of 64 "
                      "with a [32 mass, 64 k] tile of top-hat windows and derivatives in fp32 (sin/cos, "
                      "series below x = 0.5), row sums for sigma^2 and dsigma^2/dR, then the Tinker08 "
                      "multiplicity in log space. 4 warps, no autotune.",
    "deterministic": True,
}
RHO_CRIT = 2.77536627e11  # h^2 M_sun / Mpc^3
K_MIN, K_MAX = 1e-4, 1e2  # 1/Mpc
LOG10M_MIN, LOG10M_MAX = 10.0, 16.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pk [N_COSMO, N_K] (Mpc^3), omega_m, h, z [N_COSMO], log10 M [N_M], lnk0, dlnk."""
    s = META["sizes"][size]
    nc, nm, nk = s["N_COSMO"], s["N_M"], s["N_K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    om = 0.24 + 0.14 * torch.rand(nc, generator=g, dtype=torch.float64)
    h = 0.62 + 0.14 * torch.rand(nc, generator=g, dtype=torch.float64)
    ns = 0.93 + 0.06 * torch.rand(nc, generator=g, dtype=torch.float64)
    s8 = 0.70 + 0.20 * torch.rand(nc, generator=g, dtype=torch.float64)
    z = 2.0 * torch.rand(nc, generator=g, dtype=torch.float64)
    lnk0 = math.log(K_MIN)
    dlnk = (math.log(K_MAX) - lnk0) / (nk - 1)
    k = torch.exp(lnk0 + dlnk * torch.arange(nk, dtype=torch.float64))[None, :]
    # BBKS transfer function, normalised to sigma_8 at z = 0, Carroll-Press-Turner growth to z
    q = k / (om * h * h)[:, None]
    tk = torch.log1p(2.34 * q) / (2.34 * q) * (1 + 3.89 * q + (16.1 * q) ** 2 + (5.46 * q) ** 3
                                               + (6.71 * q) ** 4) ** -0.25
    shape = k ** ns[:, None] * tk ** 2
    x8 = k * (8.0 / h)[:, None]
    w8 = 3.0 * (torch.sin(x8) - x8 * torch.cos(x8)) / x8 ** 3
    w8 = torch.where(x8 < 1e-2, torch.ones_like(x8), w8)
    s2 = (k ** 3 * shape * w8 ** 2).sum(1) * dlnk / (2 * math.pi ** 2)
    e2 = om * (1 + z) ** 3 + 1 - om
    om_a, ol_a = om * (1 + z) ** 3 / e2, (1 - om) / e2
    cpt = lambda oma, ola: 2.5 * oma / (oma ** (4 / 7) - ola + (1 + oma / 2) * (1 + ola / 70))
    growth = cpt(om_a, ol_a) / cpt(om, 1 - om) / (1 + z)
    pk = shape * (s8 ** 2 / s2 * growth ** 2)[:, None]
    log10m = torch.linspace(LOG10M_MIN, LOG10M_MAX, nm, dtype=torch.float64)

    def put(x):
        return x.to(device=device, dtype=dt)
    return put(pk), put(om), put(h), put(z), put(log10m), lnk0, dlnk


def reference(pk, omega_m, h, z, log10m, lnk0, dlnk):
    p = pk.double()
    nk = p.shape[1]
    k = torch.exp(lnk0 + dlnk * torch.arange(nk, dtype=torch.float64, device=p.device))
    wt = torch.full((nk,), dlnk, dtype=torch.float64, device=p.device)
    wt[0] *= 0.5
    wt[-1] *= 0.5
    d2 = p * (k ** 3 * wt / (2.0 * math.pi ** 2))[None, :]            # [c, k]
    rho = omega_m.double() * RHO_CRIT * h.double() ** 2                  # [c]
    mass = 10.0 ** log10m.double()                                       # [m]
    r = (3.0 * mass[None, :] / (4.0 * math.pi * rho[:, None])) ** (1.0 / 3.0)  # [c, m]
    s2 = torch.empty_like(r)
    ds2 = torch.empty_like(r)
    for c0 in range(0, r.shape[0], 16):  # chunks of cosmologies keep the [c, m, k] temporaries small
        rc = r[c0:c0 + 16]
        x = rc[:, :, None] * k[None, None, :]                            # [c, m, k]
        x2 = x * x
        w_small = 1.0 + x2 * (-1.0 / 10.0 + x2 * (1.0 / 280.0 - x2 / 15120.0))
        dw_small = x * (-1.0 / 5.0 + x2 * (1.0 / 70.0 - x2 / 2520.0))
        sn, cs = torch.sin(x), torch.cos(x)
        w_big = 3.0 * (sn - x * cs) / (x2 * x)
        dw_big = 3.0 * ((x2 - 3.0) * sn + 3.0 * x * cs) / (x2 * x2)
        small = x < 0.5
        w = torch.where(small, w_small, w_big)
        dw = torch.where(small, dw_small, dw_big)
        dc = d2[c0:c0 + 16, None, :]
        s2[c0:c0 + 16] = (dc * w * w).sum(-1)
        ds2[c0:c0 + 16] = (dc * 2.0 * w * dw * k[None, None, :]).sum(-1)
    dlns_dlnm = r * ds2 / (6.0 * s2)
    zz = z.double()[:, None]
    alpha = 10.0 ** (-(0.75 / math.log10(200.0 / 75.0)) ** 1.2)
    amp = 0.186 * (1.0 + zz) ** -0.14
    aa = 1.47 * (1.0 + zz) ** -0.06
    bb = 2.57 * (1.0 + zz) ** -alpha
    sigma = torch.sqrt(s2)
    lnf = torch.log(amp) + torch.log((sigma / bb) ** -aa + 1.0) - 1.19 / s2
    lnn = lnf + torch.log(rho)[:, None] - torch.log(mass)[None, :] + math.log(math.log(10.0)) \
        + torch.log(-dlns_dlnm)
    return (lnn / math.log(10.0)).to(pk.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N_COSMO"] * (s["N_K"] + s["N_M"]),
            "flops": 40 * s["N_COSMO"] * s["N_M"] * s["N_K"]}
