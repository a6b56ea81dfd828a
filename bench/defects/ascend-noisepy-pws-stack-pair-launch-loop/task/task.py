"""Phase-weighted stack of daily cross-correlations (NoisePy noise_module.pws, Schimmel & Paulssen 1997).

NoisePy S3 stacks, for every station pair and each of its 9 component pairs (EE, EN, ..., ZZ), the daily
cross-correlation functions arr [N days, M lags] (M = 2 * maxlag * fs + 1):

    analytic = hilbert(arr, axis=1)                     (computed upstream: hil = imag(analytic))
    phasor   = exp(1j * angle(arr + 1j * hil))          (angle(0) = 0 -> phasor 1)
    c[m]     = mean_n phasor[n, m]
    pws[m]   = |c[m]| ** power * mean_n arr[n, m]

Inputs are batched over the P = pairs x components series: ccf, hil [P, N, M] fp32 and the int power
(NoisePy's default 2; an even power). Returns pws [P, M] fp32.
"""
import math

import torch

META = {
    "name": "noisepy_pws_stack",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"P": 3, "N": 5, "M": 161, "fs": 20.0},
        "ragged": {"P": 5, "N": 7, "M": 333, "fs": 20.0},
        # 16 station pairs x 9 component pairs, a month of daily CCFs, maxlag 200 s at 20 Hz
        "large": {"P": 144, "N": 30, "M": 8001, "fs": 20.0},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores) looping over (series, 1024-lag block) "
                      "items; each walks the N days with contiguous row loads of the CCF and its Hilbert "
                      "transform, keeps the linear sum and the phasor sums in registers and stores "
                      "|c|^power * mean once; no autotune.",
    "deterministic": True,
}


def _hilbert_imag(x: torch.Tensor) -> torch.Tensor:
    """Imaginary part of scipy.signal.hilbert(x, axis=-1) (fp64)."""
    n = x.shape[-1]
    h = torch.zeros(n, dtype=torch.float64)
    h[0] = 1.0
    if n % 2 == 0:
        h[n // 2] = 1.0
        h[1:n // 2] = 2.0
    else:
        h[1:(n + 1) // 2] = 2.0
    return torch.fft.ifft(torch.fft.fft(x, dim=-1) * h, dim=-1).imag


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ccf [P, N, M], hil [P, N, M] and power (int)."""
    s = META["sizes"][size]
    P, N, M, fs = s["P"], s["N"], s["M"], s["fs"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = (torch.arange(M, dtype=torch.float64) - (M - 1) / 2) / fs
    t0 = (M - 1) / fs / 4 * (0.5 + torch.rand(P, 1, 1, generator=g, dtype=torch.float64))
    f0 = 0.1 + 0.3 * torch.rand(P, 1, 1, generator=g, dtype=torch.float64)
    lag = t.abs()[None, None, :] - t0
    wavelet = torch.exp(-(lag * f0) ** 2) * torch.cos(2.0 * math.pi * f0 * lag)
    amp = 0.5 + torch.rand(P, N, 1, generator=g, dtype=torch.float64)
    ccf = amp * wavelet + 0.8 * torch.randn(P, N, M, generator=g, dtype=torch.float64)
    hil = _hilbert_imag(ccf)
    return ccf.to(dt).to(device), hil.to(dt).to(device), 2


def reference(ccf: torch.Tensor, hil: torch.Tensor, power: int) -> torch.Tensor:
    x, h = ccf.double(), hil.double()
    amp = torch.sqrt(x * x + h * h)
    nz = amp > 0
    safe = torch.where(nz, amp, torch.ones_like(amp))
    c_re = torch.where(nz, x / safe, torch.ones_like(x)).mean(1)
    c_im = torch.where(nz, h / safe, torch.zeros_like(h)).mean(1)
    weight = torch.sqrt(c_re * c_re + c_im * c_im) ** power
    return (weight * x.mean(1)).to(ccf.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["P"] * s["N"] * s["M"]
    return {"bytes": 8 * n + 4 * s["P"] * s["M"], "flops": 10 * n}
