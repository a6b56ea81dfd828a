"""Vorbis decoder synthesis: window the IMDCT output of each long block and overlap-add its halves.

libvorbis (vorbis_synthesis_blockin / vorbis_synthesis_pcmout) keeps, per channel, the inverse-MDCT
output y_f of every block (n = 2048 samples for the long blocks of 44.1 kHz streams), multiplies it
by the Vorbis power-sine window
    w[i] = sin(pi/2 * sin^2((i + 0.5) / n * pi)),   i in [0, n)
(rising over the first half, falling over the second; w[i]^2 + w[i + n/2]^2 = 1), and returns the
pcm between two block centres as the sum of the previous block's right half and the current block's
left half:
    pcm[c, f, i] = y[c, f, n/2 + i] * w[n/2 + i] + y[c, f + 1, i] * w[i],   i in [0, n/2)
Only long/long transitions are modelled (a steady stream of long blocks). Returns fp32 pcm
[C, F - 1, n/2].
"""
import math

import torch

META = {
    "name": "vorbis_window_overlap_add",
    "level": 1,
    "category": "audio",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"C": 2, "F": 5, "N": 64},
        "ragged": {"C": 3, "F": 8, "N": 256},
        "large": {"C": 2, "F": 25840, "N": 2048},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over tiles of 4 frames x the whole half block "
                      "(n/2 = 1024 contiguous samples per row): the previous frames' right halves and the "
                      "current frames' left halves are loaded as 2-D row tiles, windowed by the falling and "
                      "rising window halves broadcast over the rows, added and stored; no autotune.",
    "deterministic": True,
}


def vorbis_window(n: int) -> torch.Tensor:
    """The long/long Vorbis window over a whole block of n samples (fp32)."""
    i = torch.arange(n, dtype=torch.float64)
    s = torch.sin((i + 0.5) / n * math.pi)
    return torch.sin(0.5 * math.pi * s * s).to(torch.float32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """IMDCT output y [C, F, N] (one row per block and channel) and the window [N]."""
    s = META["sizes"][size]
    c, f, n = s["C"], s["F"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.randn(c, f, n, generator=g) * 0.25
    return y.to(device=device, dtype=dt), vorbis_window(n).to(device=device, dtype=dt)


def reference(y: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    h = y.shape[-1] // 2
    yd, wd = y.double(), window.double()
    pcm = yd[:, :-1, h:] * wd[h:] + yd[:, 1:, :h] * wd[:h]
    return pcm.to(y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    c, f, n = s["C"], s["F"], s["N"]
    outs = c * (f - 1) * (n // 2)
    return {"bytes": 12 * outs + 4 * n, "flops": 3 * outs}
