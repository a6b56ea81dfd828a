"""Frequency-domain correlation of a template bank with one data segment (PyCBC matched filtering:
pycbc.filter.matchedfilter.correlate inside MatchedFilterControl / pycbc_inspiral's loop over the bank).

For each template t of a batch the matched filter forms, before its inverse FFT to the complex SNR series,

    qtilde[t, k] = conj(htilde[t, k]) * stilde[k]     for kmin <= k < kmax[t],   0 elsewhere

with stilde the over-whitened data segment (strain FFT / PSD) and kmax[t] the bin of the template's final
frequency (htilde.end_idx). Complex64 values are stored as float32 [..., 2] (re, im) pairs; returns qtilde
[n_templates, N/2 + 1, 2] float32. Size large is a BBH sub-bank of 1024 templates filtered on 64 s segments
sampled at 2048 Hz (N = 131072), f_lower = 30 Hz.
"""
import math

import torch

META = {
    "name": "bank_correlate",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"templates": 3, "N": 2048, "f_low": 30.0, "rate": 2048.0},
        "ragged": {"templates": 5, "N": 3000, "f_low": 25.0, "rate": 2048.0},
        "large": {"templates": 1024, "N": 131072, "f_low": 30.0, "rate": 2048.0},
    },
    "baseline_notes": "One launch over grid (cdiv(N/2 + 1, 1024), templates): each program reads its template's "
                      "kmax, loads a 1024-bin slice of htilde and stilde (re and im as two stride-2 loads), "
                      "writes conj(h) * s inside [kmin, kmax) and zeros outside. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """htilde [n, N/2+1, 2], stilde [N/2+1, 2], kmax int32 [n], kmin (int)."""
    s = META["sizes"][size]
    n, N, f_low, rate = s["templates"], s["N"], s["f_low"], s["rate"]
    nf = N // 2 + 1
    df = rate / N
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    kmin = int(math.ceil(f_low / df))
    # a BBH sub-bank: stationary-phase inspirals, chirp masses 5-30 Msun, cut at the ISCO of their total mass
    mchirp = 5.0 * (6.0 ** torch.rand(n, generator=g, dtype=torch.float64))
    eta = 0.1 + 0.15 * torch.rand(n, generator=g, dtype=torch.float64)
    mtotal = mchirp / eta ** 0.6
    f_isco = 4400.0 / mtotal
    kmax = torch.clamp((f_isco / df).floor(), kmin + 1, nf - 1).to(torch.int32)
    tc = torch.rand(n, generator=g, dtype=torch.float64)
    f = (torch.arange(nf, dtype=torch.float64, device=device) * df).clamp(min=df)
    msun_s = 4.925491e-6
    v = (math.pi * (mchirp.to(device)[:, None] * msun_s) * f[None, :]) ** (1.0 / 3.0)
    psi = 2.0 * math.pi * f[None, :] * tc.to(device)[:, None] + 3.0 / 128.0 / v ** 5 - math.pi / 4.0
    k = torch.arange(nf, device=device)
    inside = (k[None, :] >= kmin) & (k[None, :] < kmax.to(device).long()[:, None])
    amp = torch.where(inside, f[None, :] ** (-7.0 / 6.0), 0.0)      # zero outside [f_low, f_isco)
    amp = amp / amp.square().sum(1, keepdim=True).sqrt()
    htilde = torch.polar(amp, -psi)
    # data: coloured Gaussian noise over-whitened by the PSD (seismic wall, bucket, shot noise)
    x = f / 150.0
    psd = x ** -4.0 + 2.0 + x ** 2
    noise = torch.complex(torch.randn(nf, generator=g, dtype=torch.float64),
                          torch.randn(nf, generator=g, dtype=torch.float64)).to(device)
    stilde = noise / psd.sqrt()
    h = torch.view_as_real(htilde).to(dt).contiguous()
    st = torch.view_as_real(stilde).to(dt).contiguous()
    return h, st, kmax.to(device), kmin


def reference(htilde: torch.Tensor, stilde: torch.Tensor, kmax: torch.Tensor, kmin: int) -> torch.Tensor:
    h = torch.view_as_complex(htilde.double().contiguous())
    s = torch.view_as_complex(stilde.double().contiguous())
    k = torch.arange(h.shape[1], device=h.device)
    band = (k[None, :] >= kmin) & (k[None, :] < kmax.long()[:, None])
    q = torch.where(band, h.conj() * s[None, :], torch.zeros((), dtype=h.dtype, device=h.device))
    return torch.view_as_real(q).to(htilde.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nf = s["N"] // 2 + 1
    return {"bytes": 16 * s["templates"] * nf + 8 * nf, "flops": 6 * s["templates"] * nf}
