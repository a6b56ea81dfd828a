"""Limber angular power spectra of every tracer pair of a 3x2pt analysis (CCL angular_cl, Limber).

C_l^{ab} = int dchi W_a(chi) W_b(chi) / chi^2 P(k = (l + 1/2) / chi, z(chi)), evaluated as CCL's
Limber integrator does on a grid of comoving distances: a quadrature over chi nodes with weights w_i,
the radial kernels of the tracers tabulated at the nodes (galaxy clustering b(z) n(z) H(z)/c for the
lens bins, the lensing efficiency 3/2 Omega_m H0^2/c^2 chi/a int n(chi') (chi' - chi)/chi' for the
source bins), and P(k, z) read from CCL's 2-D spline table, here ln P tabulated at every chi node on
a uniform ln k grid (ln k = lnk0 + m * dlnk) and interpolated linearly in ln k (clamped to the table).
Inputs: ells fp32 [L], chi fp32 [C] (Mpc), quadrature weights fp32 [C], kernels fp32 [T, C],
ln P fp32 [C, K] (Mpc^3), the list of spectra as pair_a, pair_b int32 [NP] (all a <= b), lnk0, dlnk.
Returns C_l fp32 [NP, L].
"""
import math

import numpy as np
import torch

META = {
    "name": "limber_angular_cl",
    "level": 2,
    "category": "cosmology",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-14, "rtol": 5e-3}},
    "sizes": {
        "small": {"n_lens": 2, "n_src": 1, "L": 24, "C": 40, "K": 64},
        "ragged": {"n_lens": 3, "n_src": 2, "L": 37, "C": 45, "K": 50},
        "large": {"n_lens": 10, "n_src": 5, "L": 8192, "C": 1024, "K": 512},
    },
    "baseline_notes": "Grid (l blocks of 64, pair blocks of 64); each program walks the chi nodes in blocks "
                      "of 32, interpolates the P(k, z) tile [64 l, 32 chi] once and multiplies it with the "
                      "[32 chi, 64 pair] tile of kernel products W_a W_b w / chi^2 by tl.dot (tf32), fp32 "
                      "accumulator. 4 warps, no autotune.",
    "deterministic": True,
}
C_KMS = 299792.458
K_MIN, K_MAX = 1e-4, 1e2  # 1/Mpc


def _background(om, h, z):
    e = torch.sqrt(om * (1.0 + z) ** 3 + 1.0 - om)
    return e, C_KMS / (100.0 * h)  # E(z), Hubble distance in Mpc


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    om = 0.31 + 0.02 * (torch.rand(1, generator=g).item() - 0.5)
    h, ns = 0.677, 0.965
    # chi(z) on a fine grid (trapezoid), then chi nodes uniform in chi between z = 0.02 and z = 3.5
    zf = torch.linspace(0.0, 4.0, 8001, dtype=torch.float64)
    ef, dh = _background(om, h, zf)
    chif = torch.cat([torch.zeros(1, dtype=torch.float64),
                      torch.cumsum(0.5 * (1.0 / ef[1:] + 1.0 / ef[:-1]) * (zf[1:] - zf[:-1]), 0)]) * dh
    n_chi = s["C"]
    lo, hi = np.interp([0.02, 3.5], zf.numpy(), chif.numpy())
    chi = torch.linspace(float(lo), float(hi), n_chi, dtype=torch.float64)
    z = torch.from_numpy(np.interp(chi.numpy(), chif.numpy(), zf.numpy()))
    wq = torch.full_like(chi, float(hi - lo) / (n_chi - 1))
    wq[0] *= 0.5
    wq[-1] *= 0.5
    e, _ = _background(om, h, z)
    # linear growth (Carroll, Press & Turner 1992) and BBKS linear power, sigma8 ~ 0.8
    def cpt(zz):
        ee, _ = _background(om, h, zz)
        om_a = om * (1.0 + zz) ** 3 / ee ** 2
        ol_a = (1.0 - om) / ee ** 2
        return 2.5 * om_a / (om_a ** (4.0 / 7.0) - ol_a + (1.0 + 0.5 * om_a) * (1.0 + ol_a / 70.0)) / (1.0 + zz)
    growth = cpt(z) / cpt(torch.zeros(1, dtype=torch.float64))
    n_k = s["K"]
    lnk0 = math.log(K_MIN)
    dlnk = (math.log(K_MAX) - lnk0) / (n_k - 1)
    k = torch.exp(lnk0 + dlnk * torch.arange(n_k, dtype=torch.float64))
    q = k / (om * h * h)
    tk = torch.log1p(2.34 * q) / (2.34 * q) * (1 + 3.89 * q + (16.1 * q) ** 2 + (5.46 * q) ** 3
                                               + (6.71 * q) ** 4) ** -0.25
    pk0 = 2.1e6 * k ** ns * tk ** 2 * h ** -3 * (1.0 + 0.05 * (torch.rand(1, generator=g).item() - 0.5))
    lnpk = torch.log(pk0)[None, :] + 2.0 * torch.log(growth)[:, None]
    # radial kernels: Gaussian photo-z bins; clustering b(z) n(z) H/c, lensing efficiency for sources
    def nz_bins(centres, width):
        nz = torch.exp(-0.5 * ((z[None, :] - centres[:, None]) / (width * (1.0 + centres[:, None]))) ** 2)
        dzdchi = e / dh
        nchi = nz * dzdchi[None, :]
        return nchi / (nchi * wq[None, :]).sum(1, keepdim=True)  # normalised n(chi)
    lens = nz_bins(torch.linspace(0.25, 1.15, s["n_lens"], dtype=torch.float64), 0.03)
    bias = 0.95 + 0.8 * z
    w_lens = bias[None, :] * lens
    src = nz_bins(torch.linspace(0.45, 1.65, s["n_src"], dtype=torch.float64), 0.12)
    ratio = torch.clamp(1.0 - chi[None, :] / chi[:, None], min=0.0)  # [chi, chi'] (chi' - chi)/chi'
    eff = (src[:, None, :] * wq[None, None, :] * ratio.T[None, :, :]).sum(-1)
    w_src = 1.5 * om / dh ** 2 * chi[None, :] * (1.0 + z[None, :]) * eff
    kern = torch.cat([w_lens, w_src], 0)
    n_tr = kern.shape[0]
    pa, pb = torch.triu_indices(n_tr, n_tr)
    ells = torch.arange(2, 2 + s["L"], dtype=torch.float64)

    def put(x):
        return x.to(device=device, dtype=dt)
    return (put(ells), put(chi), put(wq), put(kern), put(lnpk),
            pa.to(device=device, dtype=torch.int32), pb.to(device=device, dtype=torch.int32), lnk0, dlnk)


def reference(ells, chi, wq, kern, lnpk, pair_a, pair_b, lnk0, dlnk):
    c = chi.double()
    tab = lnpk.double()
    n_k = tab.shape[1]
    u = ((torch.log(ells.double() + 0.5)[:, None] - torch.log(c)[None, :] - lnk0) / dlnk).clamp(0.0, n_k - 1.0)
    i0 = torch.floor(u).long().clamp(max=n_k - 2)
    t = u - i0
    cols = torch.arange(c.shape[0], device=c.device)[None, :].expand_as(i0)
    p0 = tab[cols, i0]
    p1 = tab[cols, i0 + 1]
    pk = torch.exp(p0 + t * (p1 - p0))  # [L, C]
    w = kern.double()
    kprod = w[pair_a.long()] * w[pair_b.long()] * (wq.double() / (c * c))[None, :]  # [NP, C]
    return (kprod @ pk.T).to(ells.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nt = s["n_lens"] + s["n_src"]
    n_pairs = nt * (nt + 1) // 2
    return {"bytes": 4 * (s["C"] * s["K"] + nt * s["C"] + n_pairs * s["L"]),
            "flops": 2 * n_pairs * s["L"] * s["C"] + 12 * s["L"] * s["C"]}
