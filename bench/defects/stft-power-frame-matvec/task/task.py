"""Whisper log-mel front end, the STFT power spectrum: reflect-padded (center=True) frames of n_fft = 400
samples every 160 samples, times the window-folded real DFT basis (201 bins), |X|^2 = re^2 + im^2."""
import math

import torch

META = {
    "name": "stft_power",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "L": 1600},
        "ragged": {"B": 2, "L": 2999},
        "large": {"B": 32, "L": 480000},
    },
    "baseline_notes": "Program per (64 frames, 64 bins, clip): the [64, 32] frame tile gathered straight from the "
                      "audio (reflect index at the edges) and two tl.dot against the [32, 64] cos and sin basis tiles "
                      "over K = 400, fp32 accumulators, power in the epilogue.",
    "deterministic": True,
}

N_FFT, HOP = 400, 160


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """audio [B, L] at 16 kHz (noise plus a tone), cos_basis / sin_basis [400, 201] with the periodic Hann window
    folded in (the nnAudio / conv-STFT form), hop 160."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(s["L"], dtype=torch.float64) / 16000.0
    freq = 100.0 + 3000.0 * torch.rand(s["B"], 1, generator=g, dtype=torch.float64)
    audio = 0.1 * torch.randn(s["B"], s["L"], generator=g, dtype=torch.float64) + 0.3 * torch.sin(2 * math.pi * freq * t)
    window = torch.hann_window(N_FFT, periodic=True, dtype=torch.float64)
    k = torch.arange(N_FFT, dtype=torch.float64)[:, None]
    j = torch.arange(N_FFT // 2 + 1, dtype=torch.float64)[None, :]
    ang = 2 * math.pi * k * j / N_FFT
    cos_basis = window[:, None] * torch.cos(ang)
    sin_basis = -window[:, None] * torch.sin(ang)
    return audio.to(dt).to(device), cos_basis.to(dt).to(device), sin_basis.to(dt).to(device), HOP


def reference(audio: torch.Tensor, cos_basis: torch.Tensor, sin_basis: torch.Tensor, hop: int) -> torch.Tensor:
    n_fft = cos_basis.shape[0]
    x = torch.nn.functional.pad(audio.double()[:, None, :], (n_fft // 2, n_fft // 2), mode="reflect")[:, 0]
    frames = x.unfold(-1, n_fft, hop)                     # [B, n_frames, n_fft]
    re = frames @ cos_basis.double()
    im = frames @ sin_basis.double()
    return (re * re + im * im).to(audio.dtype)           # [B, n_frames, n_freq]


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    frames = s["B"] * (1 + s["L"] // HOP)
    n_freq = N_FFT // 2 + 1
    return {"bytes": 4 * (s["B"] * s["L"] + 2 * N_FFT * n_freq + frames * n_freq),
            "flops": 4 * frames * N_FFT * n_freq}
