"""Per-voice one-pole lowpass with an envelope-modulated cutoff, as Faust generates it.

A Faust polyphonic instrument's tone stage `fi.pole(p) * (1 - p)` with p = exp(-2 pi fc / SR)
(the `si.smooth` / `ba.tau2pole` form), whose cutoff fc is driven sample by sample by the voice's
filter envelope. Faust's compute() runs, per voice,

    p[n]  = exp(-2 pi fc[n] / SR)
    y[n]  = (1 - p[n]) * x[n] + p[n] * y[n - 1]

starting from the state y[-1] that the voice kept from the previous buffer. Inputs: x [V, T] fp32
(the voices' oscillator output), fc [V, T] fp32 cutoff in Hz, y_prev [V] fp32, sample rate (float).
Returns y [V, T] fp32.
"""
import math

import torch

META = {
    "name": "onepole_lowpass_modulated",
    "level": 2,
    "category": "audio-filter",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-4, "rtol": 2e-4}},
    "sizes": {
        "small": {"V": 4, "T": 300},
        "ragged": {"V": 5, "T": 777},
        "large": {"V": 128, "T": 32768},
    },
    "baseline_notes": "One program per voice walks the buffer in tiles of 1024 samples: the pole p = exp(-2 pi fc / SR) "
                      "and the input term (1 - p) x are computed for the whole tile, the linear recurrence is solved "
                      "with tl.associative_scan over (a, b) pairs (composition (a1 a2, a2 b1 + b2)), the carried state "
                      "enters as y = A * y_prev + B and the tile's last output becomes the next tile's state. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
SAMPLE_RATE = 48000.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Voice signals x [V, T], per-sample cutoff fc [V, T] (Hz), previous filter state [V], sample rate."""
    s = META["sizes"][size]
    V, T = s["V"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(T, dtype=torch.float64) / SAMPLE_RATE
    # naive sawtooth oscillators at MIDI notes 36..84 plus a little noise
    notes = torch.randint(36, 85, (V, 1), generator=g).double()
    freq = 440.0 * torch.pow(2.0, (notes - 69.0) / 12.0)
    start = torch.rand(V, 1, generator=g, dtype=torch.float64)
    x = 2.0 * torch.frac(freq * t[None, :] + start) - 1.0
    x = 0.8 * x + 0.05 * torch.randn(V, T, generator=g, dtype=torch.float64)
    # filter envelope: fc = base * 2^(octaves * exp(-t / decay)), capped below Nyquist
    base = 150.0 + 1500.0 * torch.rand(V, 1, generator=g, dtype=torch.float64)
    octaves = 5.0 * torch.rand(V, 1, generator=g, dtype=torch.float64)
    decay = 0.02 + 0.3 * torch.rand(V, 1, generator=g, dtype=torch.float64)
    fc = (base * torch.pow(2.0, octaves * torch.exp(-t[None, :] / decay))).clamp(max=0.45 * SAMPLE_RATE)
    y_prev = 0.5 * torch.randn(V, generator=g, dtype=torch.float64)
    return x.to(dt).to(device), fc.to(dt).to(device), y_prev.to(dt).to(device), SAMPLE_RATE


def reference(x: torch.Tensor, fc: torch.Tensor, y_prev: torch.Tensor, sample_rate: float) -> torch.Tensor:
    xd, p = x.double(), torch.exp(fc.double() * (-2.0 * math.pi / sample_rate))
    b = (1.0 - p) * xd
    y = torch.empty_like(xd)
    state = y_prev.double()
    for n in range(x.shape[1]):
        state = b[:, n] + p[:, n] * state
        y[:, n] = state
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["V"] * s["T"]
    return {"bytes": 12 * n + 4 * s["V"], "flops": 8 * n}
