"""Integrated wave parameters from 2-D spectra (ECMWF WAM output: swh, mp1, mp2, wdw).

For every sea point the variance density E(f, theta) is integrated over the NK x NTH spectral bins
(direction index fastest, WAM's FL(IJ, K, M) with K the direction, flattened per point to NSPEC bins):
    m_n = sum_bins f^n E df dtheta,   a1 = sum cos(theta) E df dtheta,   b1 = sum sin(theta) E df dtheta
    Hs = 4 sqrt(m0)                     significant wave height (swh)
    Tm01 = m0 / m1                      mean period from the first moment (mp1)
    Tm02 = sqrt(m0 / m2)                mean period from the second moment (mp2)
    sigma_theta = sqrt(2 (1 - sqrt(a1^2 + b1^2) / m0))   directional spread (Kuik et al. 1988), degrees
The model keeps per-bin tables of frequency, bandwidth df*dtheta and cos/sin of the direction (WAM's
FR, DFIM and COSTH/SINTH expanded to NSPEC, as WW3's SIG2/ECOS/ESIN); no parametric tail is added.
Returns (hs, tm01, tm02, spread), each [P] fp32.
"""
import math

import torch

META = {
    "name": "wam_integrated_parameters",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"P": 9, "NK": 12, "NTH": 12},
        "ragged": {"P": 21, "NK": 17, "NTH": 18},
        "large": {"P": 65536, "NK": 36, "NTH": 36},
    },
    "baseline_notes": "One launch: 40 programs (the A2's vector cores) loop over blocks of 16 sea points; "
                      "each block streams its spectra in [16, 256] chunks along the contiguous bin axis "
                      "and accumulates m0, m1, m2, a1 and b1 in one pass, then writes the four "
                      "parameters; no autotune.",
    "deterministic": True,
}
GRAV = 9.806


def _spectra(P: int, f: torch.Tensor, th: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Wind sea (JONSWAP x cos^2s) plus a swell partition per point, random peaks and directions (fp64)."""
    def partition(fp, alpha, gamma, thm, s):
        width = torch.where(f[None, :] <= fp, 0.07, 0.09)
        peak = gamma ** torch.exp(-((f[None, :] - fp) ** 2) / (2.0 * width ** 2 * fp ** 2))
        ef = alpha * GRAV ** 2 * (2 * math.pi) ** -4 * f[None, :] ** -5 \
            * torch.exp(-1.25 * (fp / f[None, :]) ** 4) * peak
        d = torch.cos(0.5 * (th[None, :] - thm)).abs() ** (2 * s)
        d = d / (d.sum(-1, keepdim=True) * (th[1] - th[0]))
        return ef[:, :, None] * d[:, None, :]

    r = lambda: torch.rand(P, 1, generator=g, dtype=torch.float64)
    sea = partition(0.09 + 0.15 * r(), 0.004 + 0.012 * r(), 3.3, 2 * math.pi * r(), 2.0 + 6.0 * r())
    swell = partition(0.05 + 0.04 * r(), 0.0005 + 0.002 * r(), 5.0, 2 * math.pi * r(), 10.0 + 20.0 * r())
    return (sea + swell).reshape(P, -1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """E [P, NSPEC], per-bin tables fr, df*dtheta, cos(theta), sin(theta) [NSPEC]."""
    s = META["sizes"][size]
    P, NK, NTH = s["P"], s["NK"], s["NTH"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f = 0.03453 * 1.1 ** torch.arange(NK, dtype=torch.float64)       # WAM: FR(1) = 0.03453 Hz, ratio 1.1
    df = f * 0.5 * (1.1 - 1.0 / 1.1)                                  # log-spaced bandwidths
    dth = 2 * math.pi / NTH
    th = dth * (torch.arange(NTH, dtype=torch.float64) + 0.5)
    spec = _spectra(P, f, th, g)
    fr = f[:, None].expand(NK, NTH).reshape(-1)
    dfdth = (df[:, None] * dth).expand(NK, NTH).reshape(-1)
    ecos = torch.cos(th)[None, :].expand(NK, NTH).reshape(-1)
    esin = torch.sin(th)[None, :].expand(NK, NTH).reshape(-1)
    cast = lambda x: x.contiguous().to(dt).to(device)
    return cast(spec), cast(fr), cast(dfdth), cast(ecos), cast(esin)


def reference(spec, fr, dfdth, ecos, esin):
    e = spec.double() * dfdth.double()[None, :]
    f = fr.double()[None, :]
    m0 = e.sum(-1).clamp(min=1e-20)
    m1 = (e * f).sum(-1)
    m2 = (e * f * f).sum(-1)
    a1 = (e * ecos.double()[None, :]).sum(-1)
    b1 = (e * esin.double()[None, :]).sum(-1)
    hs = 4.0 * m0.sqrt()
    tm01 = m0 / m1
    tm02 = (m0 / m2).sqrt()
    r = (a1 * a1 + b1 * b1).sqrt() / m0
    spread = (2.0 * (1.0 - r)).clamp(min=0.0).sqrt() * (180.0 / math.pi)
    dt = spec.dtype
    return hs.to(dt), tm01.to(dt), tm02.to(dt), spread.to(dt)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["P"] * s["NK"] * s["NTH"]
    return {"bytes": 4 * n + 16 * s["P"], "flops": 10 * n}
