"""Instrument-response removal in the frequency domain (ObsPy Trace.remove_response, output="VEL").

The traces of one station (here its three broadband channels, one day each) have been demeaned,
tapered, zero-padded to nfft (ObsPy's _npts2nfft: 2 * npts, 5-smooth) and rfft'd: X[t, k], k = 0..F-1,
F = nfft // 2 + 1, bin k at frequency f_k = k * df. R[t, k] is each channel's complex response
(counts per um/s) evaluated at the same bins (Response.get_evalresp_response). The kernel does
what remove_response does between the two FFTs:
  - pre_filt: the cosine SAC taper C(f) of obspy.signal.invsim.cosine_sac_taper with corners
    (f1, f2, f3, f4): 0 below f1, 0.5 (1 - cos(pi (f - f1) / (f2 - f1))) up to f2, 1 up to f3,
    0.5 (1 + cos(pi (f - f3) / (f4 - f3))) up to f4, 0 above;
  - water level (invert_spectrum): swamp_t = max_k |R[t, k]| * 10^(-water_level / 20); bins with
    0 < |R| < swamp get their modulus raised to swamp (phase kept), then R is inverted; R = 0 gives 0;
  - Y[t, k] = X[t, k] * C(f_k) / R_wl[t, k].
Inputs and outputs are split into real and imaginary fp32 planes [T, F]; returns (Y_re, Y_im).
"""
import math

import torch

META = {
    "name": "remove_response_deconvolve",
    "level": 2,
    "category": "spectral",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 3, "F": 4097},
        "ragged": {"T": 3, "F": 3001},
        "large": {"T": 3, "F": 8640001},
    },
    "baseline_notes": "Two launches of min(40, items) programs (the 910B4's vector cores): the first splits every "
                      "trace's response into 64 segments and writes each segment's peak |R|^2, the second loops "
                      "over (trace, 2048-bin chunk) items, takes the trace's water level from its 64 partial "
                      "peaks and applies taper, water-levelled inverse and product on contiguous chunks; no autotune.",
    "deterministic": True,
}
FS = 100.0                       # sampling rate, Hz
PRE_FILT = (0.005, 0.01, 35.0, 45.0)
WATER_LEVEL = 60.0               # dB, ObsPy's default
# STS-2 (generation 1) velocity response: zeros and poles in rad/s, sensitivity in counts per um/s
ZEROS = (0j, 0j)
POLES = (-0.037004 + 0.037016j, -0.037004 - 0.037016j, -251.33 + 0j,
         -131.04 - 467.29j, -131.04 + 467.29j)
SENSITIVITY = 1500.0


def _response(freqs: torch.Tensor, gain: float, corner: float) -> torch.Tensor:
    s = 2j * math.pi * freqs.to(torch.complex128)
    num = torch.ones_like(s)
    den = torch.ones_like(s)
    for z in ZEROS:
        num = num * (s - z)
    for i, p in enumerate(POLES):
        den = den * (s - (p * corner if i < 2 else p))
    h = num / den
    s1 = torch.tensor(2j * math.pi, dtype=torch.complex128)
    ref = s1 ** len(ZEROS)
    for i, p in enumerate(POLES):
        ref = ref / (s1 - (p * corner if i < 2 else p))
    return h * (gain / ref.abs())          # normalised to the sensitivity at 1 Hz


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """X_re, X_im, R_re, R_im [T, F]; df (Hz); pre_filt corners (f1, f2, f3, f4); water level (dB)."""
    s = META["sizes"][size]
    T, F = s["T"], s["F"]
    nfft = 2 * (F - 1)
    npts = nfft // 2
    df = FS / nfft
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(npts, dtype=torch.float64) / FS
    data = torch.randn(T, npts, generator=g, dtype=torch.float64) * 800.0
    data += 3000.0 * torch.sin(2 * math.pi * 0.16 * t + torch.rand(T, 1, generator=g, dtype=torch.float64) * 6.28)
    data -= data.mean(dim=1, keepdim=True)
    edge = max(2, int(0.05 * npts))
    ramp = 0.5 * (1 - torch.cos(math.pi * torch.arange(edge, dtype=torch.float64) / edge))
    data[:, :edge] *= ramp
    data[:, -edge:] *= ramp.flip(0)
    X = torch.fft.rfft(data, n=nfft, dim=1)
    freqs = torch.arange(F, dtype=torch.float64) * df
    R = torch.stack([_response(freqs, SENSITIVITY * (1.0 + 0.02 * float(torch.randn(1, generator=g))),
                               1.0 + 0.01 * float(torch.randn(1, generator=g))) for _ in range(T)])
    planes = [X.real, X.imag, R.real, R.imag]
    return (*(p.to(dt).contiguous().to(device) for p in planes), df, PRE_FILT, WATER_LEVEL)


def reference(x_re, x_im, r_re, r_im, df: float, pre_filt: tuple, water_level: float) -> tuple:
    X = torch.complex(x_re.double(), x_im.double())
    R = torch.complex(r_re.double(), r_im.double())
    F = X.shape[1]
    f = torch.arange(F, dtype=torch.float64, device=X.device) * df
    fl1, fl2, fl3, fl4 = pre_filt
    taper = torch.zeros_like(f)
    a = (fl1 <= f) & (f <= fl2)
    taper[a] = 0.5 * (1.0 - torch.cos(math.pi * (f[a] - fl1) / (fl2 - fl1)))
    b = (fl2 < f) & (f < fl3)
    taper[b] = 1.0
    c = (fl3 <= f) & (f <= fl4)
    taper[c] = 0.5 * (1.0 + torch.cos(math.pi * (f[c] - fl3) / (fl4 - fl3)))
    mod = R.abs()
    swamp = mod.amax(dim=1, keepdim=True) * 10.0 ** (-water_level / 20.0)
    low = (mod < swamp) & (mod > 0.0)
    R = torch.where(low, R * (swamp / mod.clamp(min=1e-300)), R)
    inv = torch.where(mod > 0.0, 1.0 / torch.where(mod > 0.0, R, torch.ones_like(R)), torch.zeros_like(R))
    Y = X * taper * inv
    return Y.real.to(x_re.dtype), Y.imag.to(x_re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["F"]
    return {"bytes": 4 * 6 * n, "flops": 40 * n}
