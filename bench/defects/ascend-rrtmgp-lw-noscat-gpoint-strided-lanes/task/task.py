"""Longwave no-scattering radiative transfer per g-point (RTE+RRTMGP lw_solver_noscat, one angle).

RTE+RRTMGP keeps its spectrally resolved arrays as (ncol, nlay, ngpt) in Fortran order, i.e. C-order
[ngpt, nlay, ncol] with the column index contiguous; level 0 is the top of the atmosphere. For every
g-point and column, with one diffusivity angle (secant D = 1.66, quadrature weight 0.5, so flux = pi * I)
and the Planck source B_k held constant across layer k:
    T_k = exp(-D tau_k)
    I_dn[0] = 0,           I_dn[k+1] = T_k I_dn[k] + (1 - T_k) B_k          (transport down)
    I_up[nlay] = e S + (1 - e) I_dn[nlay]                                    (surface emission + reflection)
    I_up[k] = T_k I_up[k+1] + (1 - T_k) B_k                                  (transport up)
Returns the g-point fluxes (flux_up, flux_dn), each [ngpt, nlay + 1, ncol] fp32 in W/m^2; the broadband
sum over g-points happens afterwards, as in RRTMGP's flux reduction.
"""
import math

import torch

META = {
    "name": "lw_solver_noscat",
    "level": 2,
    "category": "weather-physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"ngpt": 16, "nlay": 5, "ncol": 6},
        "ragged": {"ngpt": 12, "nlay": 7, "ncol": 13},
        "large": {"ngpt": 128, "nlay": 72, "ncol": 8192},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (g-point, block of 1024 columns) items; "
                      "each item sweeps down the layers and back up with [1024] fp32 tiles of tau and the "
                      "layer source along the contiguous column axis, storing one [1024] flux tile per level "
                      "and direction; no autotune.",
    "deterministic": True,
}
DIFFUSIVITY = 1.66


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """tau, lay_src [ngpt, nlay, ncol]; sfc_src, sfc_emis [ngpt, ncol]."""
    s = META["sizes"][size]
    G, L, C = s["ngpt"], s["nlay"], s["ncol"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f64 = torch.float64
    # optical depth spans window (1e-4) to band-centre (1e3) g-points, larger in the moist lower layers
    log_tau_g = torch.linspace(-4.0, 3.0, G, dtype=f64)[:, None, None]
    depth = torch.linspace(0.0, 1.0, L, dtype=f64)[None, :, None]          # 0 at the top, 1 at the surface
    tau = 10.0 ** (log_tau_g + 1.5 * depth - 1.0 + 0.3 * torch.randn(G, L, C, generator=g, dtype=f64))
    # Planck radiance per g-point (W/m^2/sr), temperatures from ~215 K aloft to ~290 K near the surface
    weight = 0.5 + torch.rand(G, 1, 1, generator=g, dtype=f64)
    temp = 215.0 + 75.0 * depth ** 1.5 + 3.0 * torch.randn(1, L, C, generator=g, dtype=f64)
    lay_src = weight * (124.0 / G) * (temp / 288.0) ** 4
    t_sfc = 285.0 + 10.0 * torch.rand(1, C, generator=g, dtype=f64)
    sfc_src = weight[:, :, 0] * (124.0 / G) * (t_sfc / 288.0) ** 4
    sfc_emis = 0.9 + 0.1 * torch.rand(G, C, generator=g, dtype=f64)
    fields = [tau, lay_src, sfc_src, sfc_emis]
    return tuple(f.to(dt).to(device).contiguous() for f in fields)


def reference(tau, lay_src, sfc_src, sfc_emis):
    t, b, s, e = (x.double() for x in (tau, lay_src, sfc_src, sfc_emis))
    G, L, C = t.shape
    trans = torch.exp(-DIFFUSIVITY * t)
    i_dn = torch.zeros(G, L + 1, C, dtype=torch.float64, device=t.device)
    i_up = torch.zeros_like(i_dn)
    for k in range(L):
        i_dn[:, k + 1] = trans[:, k] * i_dn[:, k] + (1.0 - trans[:, k]) * b[:, k]
    i_up[:, L] = e * s + (1.0 - e) * i_dn[:, L]
    for k in range(L - 1, -1, -1):
        i_up[:, k] = trans[:, k] * i_up[:, k + 1] + (1.0 - trans[:, k]) * b[:, k]
    return (math.pi * i_up).to(tau.dtype), (math.pi * i_dn).to(tau.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    G, L, C = s["ngpt"], s["nlay"], s["ncol"]
    return {"bytes": 4 * (4 * G * L * C + 2 * G * (L + 1) * C + 2 * G * C), "flops": 12 * G * L * C}
