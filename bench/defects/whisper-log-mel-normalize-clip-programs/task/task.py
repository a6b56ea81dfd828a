"""Whisper log-mel normalisation (whisper.audio.log_mel_spectrogram / HF WhisperFeatureExtractor, batched): per clip,
log_spec = maximum(log_spec, log_spec.max() - 8.0), then (log_spec + 4.0) / 4.0, on log10 mel spectra [B, n_mels, frames]."""
import torch

META = {
    "name": "whisper_log_mel_normalize",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"B": 3, "M": 80, "T": 300},
        "ragged": {"B": 5, "M": 80, "T": 1001},
        "large": {"B": 32, "M": 128, "T": 3000},
    },
    "baseline_notes": "Two launches over a (clip, 4,096-element chunk) grid: the first writes each chunk's max to a "
                      "[B, chunks] partials buffer, the second reduces its clip's partials (a few hundred floats) and "
                      "writes (max(x, clip_max - 8) + 4) / 4 for its chunk; 4 warps each.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """log_spec [B, M, T] = log10 of clamped mel energies: speech-like levels, a quiet tail clamped at -10."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    level = torch.randn(s["B"], 1, 1, generator=g) * 1.5
    tilt = -torch.linspace(0.0, 3.0, s["M"])[None, :, None]
    x = level + tilt + torch.randn(s["B"], s["M"], s["T"], generator=g) * 2.0
    x[:, :, -max(1, s["T"] // 8):] = -10.0
    return (x.to(dt).to(device),)


def reference(log_spec: torch.Tensor) -> torch.Tensor:
    x = log_spec.double()
    clip_max = x.amax(dim=(1, 2), keepdim=True)
    return ((torch.maximum(x, clip_max - 8.0) + 4.0) / 4.0).to(log_spec.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["M"] * s["T"]
    return {"bytes": 8 * n, "flops": 4 * n}
