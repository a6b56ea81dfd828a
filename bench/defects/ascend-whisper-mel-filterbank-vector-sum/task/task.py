"""Mel filterbank projection of Whisper's log-mel front end (whisper.audio.log_mel_spectrogram,
HF WhisperFeatureExtractor): mel = filters @ power, filters [n_mels, n_freq] (Slaney-style triangles,
n_fft 400 -> 201 bins), power [B, n_freq, frames] = |STFT|^2. Output float32 [B, n_mels, frames]."""
import torch

META = {
    "name": "whisper_mel_filterbank",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 1, "M": 16, "T": 50},
        "ragged": {"B": 3, "M": 80, "T": 333},
        "large": {"B": 16, "M": 128, "T": 3000},
    },
    "baseline_notes": "Persistent grid of 20 programs (910B AI cores) over (example, 64-frame tile): one tl.dot of "
                      "the [128, 256] zero-padded filter bank with the [256, 64] power tile on the cube unit, "
                      "fp32 accumulate.",
    "deterministic": True,
}

N_FFT = 400
SR = 16000


def _mel_filters(n_mels: int) -> torch.Tensor:
    n_freq = N_FFT // 2 + 1
    fft_hz = torch.linspace(0, SR / 2, n_freq, dtype=torch.float64)
    mel_max = 2595.0 * torch.log10(torch.tensor(1.0 + (SR / 2) / 700.0, dtype=torch.float64))
    mel_pts = torch.linspace(0, float(mel_max), n_mels + 2, dtype=torch.float64)
    hz = 700.0 * (10.0 ** (mel_pts / 2595.0) - 1.0)
    lower = (fft_hz[None, :] - hz[:-2, None]) / (hz[1:-1, None] - hz[:-2, None])
    upper = (hz[2:, None] - fft_hz[None, :]) / (hz[2:, None] - hz[1:-1, None])
    tri = torch.clamp(torch.minimum(lower, upper), min=0.0)
    enorm = 2.0 / (hz[2:] - hz[:-2])
    return (tri * enorm[:, None]).to(torch.float32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """filters [M, 201] float32 and power [B, 201, T] float32 (|STFT|^2 of speech-like noise, hop 160)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    audio = torch.randn(s["B"], 160 * (s["T"] - 1), generator=g) * 0.1
    audio = audio * (1.0 + torch.sin(torch.linspace(0, 40.0, audio.shape[1])))
    spec = torch.stft(audio, N_FFT, 160, window=torch.hann_window(N_FFT), return_complex=True)
    power = (spec.abs() ** 2).to(torch.float32)[:, :, : s["T"]].contiguous()
    return _mel_filters(s["M"]).to(device), power.to(device)


def reference(filters: torch.Tensor, power: torch.Tensor) -> torch.Tensor:
    return torch.matmul(filters.double(), power.double()).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_freq = N_FFT // 2 + 1
    return {"bytes": 4 * (s["M"] * n_freq + s["B"] * n_freq * s["T"] + s["B"] * s["M"] * s["T"]),
            "flops": 2 * s["B"] * s["M"] * n_freq * s["T"]}
