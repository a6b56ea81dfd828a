"""Deep-water source terms of SWAN's GEN3 KOMEN physics (WAM Cycle 3): wind input plus whitecapping.

For every sea point and spectral bin (radian frequency sigma_k, direction theta_j), E[point, k, j]
with the direction index fastest, in deep water (wavenumber k = sigma^2 / g):
  wind input (Snyder et al. 1981 rescaled by Komen et al. 1984, SWAN's SWIND3 form)
      S_in = max(0, 0.25 rho_a/rho_w (28 u* / c_ph cos(theta - theta_w) - 1)) sigma E,   c_ph = sigma / k
  whitecapping (Komen et al. 1984, SWAN's SWCAP1 with delta = 0, p = 4)
      S_ds = -Gamma sigma~ (k / k~) E,   Gamma = C_ds (s~ / s~_PM)^4,   s~ = k~ sqrt(E_tot)
  with the point's mean quantities over the whole spectrum
      E_tot = sum E dsigma dtheta,  sigma~ = E_tot / sum sigma^-1 E dsigma dtheta,
      k~ = (sum k^-1/2 E dsigma dtheta / E_tot)^-2,
  C_ds = 2.36e-5, s~_PM = sqrt(3.02e-3), rho_a/rho_w = 1.225/1025.
Returns S_in + S_ds, [P, NK, NTH] fp32.
"""
import math

import torch

META = {
    "name": "swan_komen_source_terms",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-7, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 7, "NK": 8, "NTH": 12},
        "ragged": {"P": 13, "NK": 11, "NTH": 18},
        "large": {"P": 32768, "NK": 32, "NTH": 24},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 64 sea points. Per block, "
                      "one pass over the NK frequency rows ([64, next_pow2(NTH)] tiles) accumulates "
                      "E_tot, sum E/sigma and sum E/sqrt(k); the whitecapping factor is formed once; a "
                      "second pass over the rows applies wind input and whitecapping and stores S; "
                      "no autotune.",
    "deterministic": True,
}
GRAV = 9.806
RHOAW = 1.225 / 1025.0
CDS = 2.36e-5
SPM = math.sqrt(3.02e-3)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """E [P,NK,NTH], sigma [NK], dsigma [NK], cos/sin theta [NTH], u* [P], wind dir [P], dtheta."""
    s = META["sizes"][size]
    P, NK, NTH = s["P"], s["NK"], s["NTH"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    r = lambda *shape: torch.rand(*shape, generator=g, dtype=torch.float64)
    ratio = 1.1 if NK >= 24 else 1.25
    f = 0.04 * ratio ** torch.arange(NK, dtype=torch.float64)
    sig = 2 * math.pi * f
    dsig = sig * 0.5 * (ratio - 1.0 / ratio)
    dth = 2 * math.pi / NTH
    th = dth * torch.arange(NTH, dtype=torch.float64)
    # wind sea in (partial) equilibrium with the local wind: JONSWAP x cos^2s around the wind direction
    u10 = 5.0 + 20.0 * r(P, 1)
    ustar = u10 * torch.sqrt(1e-3 * (0.8 + 0.065 * u10))
    wdir = 2 * math.pi * r(P, 1)
    fp = (0.6 + 0.6 * r(P, 1)) * 0.13 * GRAV / u10 * 1.0
    width = torch.where(f[None, :] <= fp, 0.07, 0.09)
    peak = 3.3 ** torch.exp(-((f[None, :] - fp) ** 2) / (2.0 * width ** 2 * fp ** 2))
    ef = 0.0081 * GRAV ** 2 * sig[None, :] ** -5 * torch.exp(-1.25 * (2 * math.pi * fp / sig[None, :]) ** 4) * peak
    thm = wdir + 0.6 * (r(P, 1) - 0.5)
    d = torch.cos(0.5 * (th[None, :] - thm)).abs() ** (2 * (2.0 + 6.0 * r(P, 1)))
    d = d / (d.sum(-1, keepdim=True) * dth)
    spec = ef[:, :, None] * d[:, None, :] * (1.0 + 0.1 * r(P, NK, NTH))
    cast = lambda x: x.contiguous().to(dt).to(device)
    return (cast(spec), cast(sig), cast(dsig), cast(torch.cos(th)), cast(torch.sin(th)),
            cast(ustar[:, 0]), cast(wdir[:, 0]), dth)


def reference(spec, sig, dsig, ecos, esin, ustar, wdir, dth):
    e = spec.double()
    s = sig.double()[None, :]
    k = (s * s / GRAV).expand(e.shape[0], -1)
    w = (dsig.double()[None, :] * dth)[:, :, None]
    etot = (e * w).sum((1, 2)).clamp(min=1e-20)
    sig_m = etot / (e * w / s[:, :, None]).sum((1, 2))
    k_m = (etot / (e * w / k.sqrt()[:, :, None]).sum((1, 2))) ** 2
    stp = k_m * etot.sqrt()
    gamma = CDS * (stp / SPM) ** 4
    cph = s / k
    cosd = (ecos.double()[None, :] * torch.cos(wdir.double())[:, None]
            + esin.double()[None, :] * torch.sin(wdir.double())[:, None])
    beta = (0.25 * RHOAW * (28.0 * ustar.double()[:, None, None] / cph[:, :, None] * cosd[:, None, :] - 1.0)).clamp(min=0.0)
    sds = gamma[:, None, None] * sig_m[:, None, None] * k[:, :, None] / k_m[:, None, None]
    return ((beta * s[:, :, None] - sds) * e).to(spec.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["P"] * s["NK"] * s["NTH"]
    return {"bytes": 8 * n + 8 * s["P"], "flops": 16 * n}
