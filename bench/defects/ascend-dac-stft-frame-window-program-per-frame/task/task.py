"""Framing + analysis window of DAC's multi-scale STFT loss, the front half of an STFT done as a DFT matmul.

DAC (descript-audio-codec, dac/nn/loss.py MultiScaleSTFTLoss / MelSpectrogramLoss through audiotools'
AudioSignal.stft) compares the magnitude spectra of real and generated audio at window lengths 2048 and
512 with hop = window // 4 and a Hann window. On an NPU port the STFT is a real-DFT matmul over windowed
frames, so a kernel cuts the (already reflect-padded) signal into overlapping frames and applies the window:
    frames[b, f, n] = x[b, f * hop + n] * window[n],   f < F = (L - n_fft) // hop + 1,  n < n_fft
which is torch's x.unfold(-1, n_fft, hop) * window. The large size is the 512-point scale (hop 128) on a
batch of 16 ten-second clips at 44.1 kHz (3,446 frames per clip, 55,136 frames).
"""
import torch

META = {
    "name": "dac_stft_frame_window",
    "level": 1,
    "category": "memory",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"B": 2, "L": 2304, "n_fft": 256},
        "ragged": {"B": 3, "L": 2333, "n_fft": 400},
        "large": {"B": 16, "L": 441512, "n_fft": 512},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 16 frames of one clip: "
                      "one [16, n_fft] load with row stride hop (overlapping rows), one window row "
                      "broadcast, one contiguous [16, n_fft] store; hop = n_fft // 4; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, L] padded audio, window [n_fft] (periodic Hann)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = 0.3 * torch.randn(s["B"], s["L"], generator=g)
    window = torch.hann_window(s["n_fft"], periodic=True, dtype=torch.float64)
    return x.to(dt).to(device), window.to(dt).to(device)


def reference(x: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    n_fft = window.shape[0]
    hop = n_fft // 4
    return (x.double().unfold(-1, n_fft, hop) * window.double()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    hop = s["n_fft"] // 4
    F = (s["L"] - s["n_fft"]) // hop + 1
    return {"bytes": 4 * s["B"] * s["L"] + 4 * s["n_fft"] + 4 * s["B"] * F * s["n_fft"],
            "flops": s["B"] * F * s["n_fft"]}
