"""CELT pitch search, finer stage (Opus celt/pitch.c pitch_search, 2x-decimated domain).

Each frame has its own 2x-decimated pitch buffer buf (Opus run_prefilter: pitch_buf of
(COMBFILTER_MAXPERIOD + N) >> 1 samples). The target is x = buf[OFF : OFF + L] (OFF =
COMBFILTER_MAXPERIOD >> 1, L = N >> 1) and the lag-i candidate is y_i = buf[i : i + L]. The coarse
4x-decimated search has already picked two candidate lags best = (b0, b1) per frame; the finer
search evaluates the cross-correlation only next to them:

    xcorr[i] = max(-1, sum_{j<L} x[j] * buf[i + j])   if |i - 2 b0| <= 2 or |i - 2 b1| <= 2
    xcorr[i] = 0                                         otherwise,          i in [0, M)

with M = max_pitch >> 1 (M <= OFF). Returns xcorr fp32 [F, M] (the input of find_best_pitch).
"""
import math

import torch

META = {
    "name": "celt_pitch_fine_xcorr",
    "level": 2,
    "category": "speech-codec",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"F": 6, "OFF": 128, "L": 120, "M": 122},
        "ragged": {"F": 5, "OFF": 100, "L": 97, "M": 77},
        # 48 kHz, 20 ms frames: N = 960 -> L = 480 at 24 kHz, COMBFILTER_MAXPERIOD = 1024 -> OFF = 512,
        # max_pitch = 1024 - 3 * 15 = 979 -> M = 489; 32,768 frames (64 streams x ~10 s).
        "large": {"F": 32768, "OFF": 512, "L": 480, "M": 489},
    },
    "baseline_notes": "Grid (frame, lag block of 32); a program whose lag block holds no lag within 2 of "
                      "2*b0 or 2*b1 only stores zeros, the others walk the target in chunks of 64 and "
                      "reduce the [32, 64] lag-by-sample product tile along the samples. 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Per-frame 2x-decimated pitch buffers buf [F, OFF + L] (voiced: a pulse train through a
    resonance, plus noise) and the coarse candidates best int32 [F, 2] in 4x-decimated lags."""
    s = META["sizes"][size]
    f, off, ln, m = s["F"], s["OFF"], s["L"], s["M"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n = off + ln
    t = torch.arange(n, dtype=torch.float64)
    period = 20.0 + torch.rand(f, 1, generator=g, dtype=torch.float64) * (m - 24.0)
    phase = torch.rand(f, 1, generator=g, dtype=torch.float64) * 2.0 * math.pi
    voiced = torch.zeros(f, n, dtype=torch.float64)
    for h in range(1, 6):
        voiced += torch.cos(h * (2.0 * math.pi * t[None, :] / period + phase)) / h
    buf = 0.3 * voiced + 0.05 * torch.randn(f, n, generator=g, dtype=torch.float64)
    true_lag = (off - period).clamp(min=0.0, max=m - 1.0)
    b0 = torch.round(true_lag / 2.0).long().squeeze(1)
    b1 = torch.randint(0, (m + 1) // 2, (f,), generator=g)
    best = torch.stack([b0, b1], dim=1).clamp(0, (m - 1) // 2).to(torch.int32)
    return buf.to(device=device, dtype=dt), best.to(device), off, ln, m


def reference(buf: torch.Tensor, best: torch.Tensor, off: int, ln: int, m: int) -> torch.Tensor:
    b = buf.double()
    xc = torch.empty(b.shape[0], m, dtype=torch.float64, device=buf.device)
    for s in range(0, b.shape[0], 256):  # frame chunks keep the [256, M, L] lag windows small
        x = b[s:s + 256, off:off + ln]
        y = b[s:s + 256, :m + ln - 1].unfold(1, ln, 1)  # [f, M, L], y[f, i, j] = buf[f, i + j]
        xc[s:s + 256] = torch.einsum("fij,fj->fi", y, x).clamp(min=-1.0)
    i = torch.arange(m, device=buf.device)[None, :]
    twice = 2 * best.long()
    near = ((i - twice[:, :1]).abs() <= 2) | ((i - twice[:, 1:]).abs() <= 2)
    return torch.where(near, xc, torch.zeros_like(xc)).to(buf.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["F"] * (s["OFF"] + s["L"] + s["M"]) + 8 * s["F"],
            "flops": 2 * s["F"] * 10 * s["L"]}
