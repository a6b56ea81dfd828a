"""Demucs track normalisation before separation (demucs/separate.py, also demucs.api.Separator).

Before apply_model, Demucs standardises the whole stereo track by the statistics of its mono
reference:

    ref = wav.mean(0)                 # mono downmix, [T]
    wav = (wav - ref.mean()) / ref.std()

(torch.std is the unbiased estimator, divisor T - 1). The same ref.mean() / ref.std() are kept to
de-normalise the separated sources afterwards, so the task returns the normalised track [2, T] and
stats = (mean, std) as an fp32 [2] tensor.
"""
import math

import torch

META = {
    "name": "demucs_track_normalize",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 5000},
        "ragged": {"T": 7777},
        # a 3 min 30 s stereo track at 44.1 kHz
        "large": {"T": 9261000},
    },
    "baseline_notes": "Three launches: 40 programs (the A2's vector cores) each stream a strided share of "
                      "4096-sample blocks of both channels and keep per-lane sum and sum of squares of the "
                      "mono reference, writing one partial sum and one partial sum of squares per program; a one-program kernel combines "
                      "the 40 partials into mean and unbiased std; 40 programs then normalise both channels "
                      "block by block. fp32 accumulation, no autotune.",
    "deterministic": True,
}
SAMPLE_RATE = 44100


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """wav [2, T]: a stereo music-like signal (partials with slow amplitude envelopes, noise, a small DC offset)."""
    T = META["sizes"][size]["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(T, dtype=torch.float64) / SAMPLE_RATE
    wav = torch.zeros(2, T, dtype=torch.float64)
    for _ in range(6):
        f0 = 55.0 * 2.0 ** (torch.rand(1, generator=g).item() * 5.0)
        pan = torch.rand(1, generator=g).item()
        env = 0.5 + 0.5 * torch.sin(2 * math.pi * 0.3 * torch.rand(1, generator=g).item() * t)
        tone = 0.08 * env * torch.sin(2 * math.pi * f0 * t + 6.28 * torch.rand(1, generator=g).item())
        wav[0] += (1.0 - pan) * tone
        wav[1] += pan * tone
    wav += 0.02 * torch.randn(2, T, generator=g, dtype=torch.float64) + 0.003
    return (wav.to(device=device, dtype=dt),)


def reference(wav: torch.Tensor) -> tuple:
    w = wav.double()
    ref = w.mean(0)
    mean, std = ref.mean(), ref.std()
    out = (w - mean) / std
    return out.to(wav.dtype), torch.stack([mean, std]).to(wav.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    T = META["sizes"][size]["T"]
    return {"bytes": 3 * 8 * T, "flops": 8 * T}
