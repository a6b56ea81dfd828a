"""Per-channel biquad IIR filtering (torchaudio.functional.lfilter with 2nd-order b/a per channel,
batching=True, clamp=False; what lowpass_biquad / equalizer_biquad run): y = lfilter(x, a, b) along
time, zero initial state. x [C, T] fp32, b and a [C, 3] fp32 (a0 not necessarily 1)."""
import math

import torch

META = {
    "name": "biquad_lfilter",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"C": 3, "T": 3000},
        "ragged": {"C": 5, "T": 2999},
        "large": {"C": 64, "T": 480000},
    },
    "baseline_notes": "One program per channel walks time in 1,024-sample chunks: FIR part as three shifted vector "
                      "loads, the 2-state recursion as a tl.associative_scan of 2x2 affine maps inside the chunk, the "
                      "state (y[n-1], y[n-2]) carried between chunks; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [C, T]: band-limited noise plus tones at 48 kHz; per-channel RBJ low-pass biquads with
    cutoff 300 Hz - 6 kHz and Q 0.6 - 1.5 (b, a unnormalised, a0 = 1 + alpha)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    c, t = s["C"], s["T"]
    fs = 48000.0
    n = torch.arange(t, dtype=torch.float64)
    f0 = 50.0 + 2000.0 * torch.rand(c, 1, generator=g, dtype=torch.float64)
    x = 0.2 * torch.randn(c, t, generator=g, dtype=torch.float64) + 0.3 * torch.sin(2 * math.pi * f0 * n / fs)
    fc = torch.exp(math.log(300.0) + (math.log(6000.0) - math.log(300.0)) * torch.rand(c, generator=g,
                                                                                        dtype=torch.float64))
    q = 0.6 + 0.9 * torch.rand(c, generator=g, dtype=torch.float64)
    w0 = 2 * math.pi * fc / fs
    alpha = torch.sin(w0) / (2 * q)
    cw = torch.cos(w0)
    b = torch.stack([(1 - cw) / 2, 1 - cw, (1 - cw) / 2], dim=1)
    a = torch.stack([1 + alpha, -2 * cw, 1 - alpha], dim=1)
    return x.to(dt).to(device), b.to(dt).to(device), a.to(dt).to(device)


def reference(x: torch.Tensor, b_coeffs: torch.Tensor, a_coeffs: torch.Tensor) -> torch.Tensor:
    """Exact linear convolution with the filter's impulse response (two distinct poles), in float64
    through the FFT."""
    b = b_coeffs.double() / a_coeffs.double()[:, :1]
    a = a_coeffs.double() / a_coeffs.double()[:, :1]
    t = x.shape[1]
    disc = torch.sqrt((a[:, 1] ** 2 - 4 * a[:, 2]).to(torch.complex128))
    p1 = ((-a[:, 1] + disc) / 2)[:, None]
    p2 = ((-a[:, 1] - disc) / 2)[:, None]
    n = torch.arange(1, t + 1, device=x.device, dtype=torch.float64)
    g = ((p1 ** n - p2 ** n) / (p1 - p2)).real                 # impulse response of 1 / A(z)
    h = b[:, :1] * g
    h[:, 1:] += b[:, 1:2] * g[:, :-1]
    h[:, 2:] += b[:, 2:3] * g[:, :-2]
    nfft = 1 << (2 * t - 1).bit_length()
    y = torch.fft.irfft(torch.fft.rfft(x.double(), nfft) * torch.fft.rfft(h, nfft), nfft)[:, :t]
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["C"] * s["T"] + 24 * s["C"], "flops": 10 * s["C"] * s["T"]}
