"""Chromaprint chroma folding: each FFT frame's power spectrum summed into 12 pitch-class bands (chroma.cpp).

Chromaprint (acoustid/chromaprint, Chroma::Consume with the default TEST2 configuration, no
interpolation) resamples audio to 11025 Hz, takes 4096-point frames (hop 1365) and, for every bin i
in [min_index, max_index) = [round(4096 * 28 / 11025), round(4096 * 3520 / 11025)) = [10, 1308),
adds the bin's energy into band notes[i] = int(12 * frac(log2(f_i / 27.5))), f_i = i * 11025 / 4096.
Frames of many tracks are stacked: spectra fp32 [N, 2049] (power), notes int32 [2049] (band per
bin, -1 outside the range) -> chroma fp32 [N, 12].
"""
import math

import torch

SAMPLE_RATE = 11025
FRAME_SIZE = 4096
MIN_FREQ = 28
MAX_FREQ = 3520
N_BINS = FRAME_SIZE // 2 + 1
N_BANDS = 12

META = {
    "name": "chromaprint_chroma_fold",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"tracks": 2, "frames": 9},
        "ragged": {"tracks": 3, "frames": 13},
        "large": {"tracks": 128, "frames": 968},
    },
    "baseline_notes": "2-D grid (16-frame blocks, 256-bin chunks of [10, 1308)): each program loads its [16, 256] "
                      "energy tile and the chunk's band indices, reduces the tile to [16, 16] band sums in registers "
                      "(a [16, 256] x [256, 16] one-hot tl.dot, tf32x3) and adds them into the zero-initialised fp32 chroma with one masked "
                      "[16, 16] atomic per program. 4 warps, no autotune.",
    "deterministic": True,
}


def bin_range() -> tuple:
    """Chromaprint's PrepareNotes bounds: [max(1, FreqToIndex(28)), min(2048, FreqToIndex(3520)))."""
    lo = max(1, round(FRAME_SIZE * MIN_FREQ / SAMPLE_RATE))
    hi = min(FRAME_SIZE // 2, round(FRAME_SIZE * MAX_FREQ / SAMPLE_RATE))
    return lo, hi


def note_table() -> torch.Tensor:
    lo, hi = bin_range()
    notes = torch.full((N_BINS,), -1, dtype=torch.int32)
    for i in range(lo, hi):
        freq = i * SAMPLE_RATE / FRAME_SIZE
        octave = math.log(freq / (440.0 / 16.0)) / math.log(2.0)
        notes[i] = int(N_BANDS * (octave - math.floor(octave)))
    return notes


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Power spectra: exponential (|complex gaussian|^2) energies under a 1/f-like envelope with a few
    strong partials per frame; notes is Chromaprint's bin -> band table."""
    s = META["sizes"][size]
    n = s["tracks"] * s["frames"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    freqs = torch.arange(N_BINS, dtype=torch.float32) * (SAMPLE_RATE / FRAME_SIZE)
    envelope = 1.0 / (1.0 + (freqs / 400.0) ** 1.5)
    spectra = -torch.log(torch.rand(n, N_BINS, generator=g).clamp_min(1e-12)) * envelope
    partials = torch.randint(20, 1300, (n, 6), generator=g)
    spectra.scatter_add_(1, partials, 40.0 * torch.rand(n, 6, generator=g))
    return spectra.to(device=device, dtype=dt), note_table().to(device)


def reference(spectra: torch.Tensor, notes: torch.Tensor) -> torch.Tensor:
    lo, hi = bin_range()
    e = spectra[:, lo:hi].double()
    chroma = torch.zeros(spectra.shape[0], N_BANDS, dtype=torch.float64, device=spectra.device)
    chroma.index_add_(1, notes[lo:hi].long(), e)
    return chroma.to(spectra.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["tracks"] * s["frames"]
    lo, hi = bin_range()
    return {"bytes": 4 * n * (hi - lo) + 4 * (hi - lo) + 4 * N_BANDS * n, "flops": n * (hi - lo)}
