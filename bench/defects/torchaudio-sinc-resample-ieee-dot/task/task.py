"""Band-limited sinc resampling (torchaudio.functional.resample / transforms.Resample,
resampling_method="sinc_interp_hann", lowpass_filter_width=6, rolloff=0.99).

With orig and new the rates divided by their gcd, the cached filter bank kernel [new, 2 * width + orig]
is applied as a strided conv: out[b, i * new + j] = sum_k x[b, i * orig + k - width] * kernel[j, k]
(x zero outside [0, L)), keeping the first ceil(new * L / orig) samples. Inputs: waveform [B, L] float32,
the filter bank, orig, new, width. Output float32 [B, ceil(new * L / orig)]."""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "sinc_resample",
    "level": 2,
    "category": "gemm",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"B": 2, "L": 400, "from": 8000, "to": 6000},
        "ragged": {"B": 3, "L": 5003, "from": 22050, "to": 16000},
        "large": {"B": 64, "L": 1323000, "from": 44100, "to": 16000},
    },
    "baseline_notes": "3-D grid (32-phase block, 128-frame block, clip): the polyphase filter as a GEMM, frames x taps "
                      "(each frame row a contiguous window of the waveform) against taps x phases, 32-tap K steps "
                      "of tl.dot with an fp32 accumulator; 4 warps.",
    "deterministic": True,
}

WIDTH_ZEROS = 6
ROLLOFF = 0.99


def sinc_filter_bank(orig_freq: int, new_freq: int) -> tuple:
    """torchaudio's hann-windowed sinc kernels for the gcd-reduced rates: ([new, 2 * width + orig], width)."""
    gcd = math.gcd(orig_freq, new_freq)
    orig, new = orig_freq // gcd, new_freq // gcd
    base = min(orig, new) * ROLLOFF
    width = math.ceil(WIDTH_ZEROS * orig / base)
    taps = torch.arange(-width, width + orig, dtype=torch.float64)[None, :] / orig
    t = (-torch.arange(new, dtype=torch.float64)[:, None] / new + taps) * base
    t = t.clamp(-WIDTH_ZEROS, WIDTH_ZEROS)
    window = torch.cos(t * math.pi / WIDTH_ZEROS / 2) ** 2
    t = t * math.pi
    kernel = torch.where(t == 0, torch.ones_like(t), torch.sin(t) / t) * window * (base / orig)
    return kernel, width, orig, new


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """waveform [B, L] (voiced harmonics plus noise, peak ~0.5) and the filter bank with its rates and width."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n = torch.arange(s["L"], dtype=torch.float32) / s["from"]
    f0 = 90.0 + 150.0 * torch.rand(s["B"], 1, generator=g)
    wave = sum(torch.sin(2 * math.pi * h * f0 * n + h) / h for h in range(1, 6)) * 0.2
    wave = wave + 0.03 * torch.randn(s["B"], s["L"], generator=g)
    kernel, width, orig, new = sinc_filter_bank(s["from"], s["to"])
    return wave.to(dt).to(device), kernel.to(dt).to(device), orig, new, width


def reference(waveform: torch.Tensor, kernel: torch.Tensor, orig: int, new: int, width: int) -> torch.Tensor:
    b, length = waveform.shape
    x = F.pad(waveform.double(), (width, width + orig))
    y = F.conv1d(x[:, None], kernel.double()[:, None, :], stride=orig)
    y = y.transpose(1, 2).reshape(b, -1)
    return y[:, : math.ceil(new * length / orig)].to(waveform.dtype).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    kernel, width, orig, new = sinc_filter_bank(s["from"], s["to"])
    frames = s["L"] // orig + 1
    out = math.ceil(new * s["L"] / orig)
    return {"bytes": 4 * s["B"] * (s["L"] + out) + 4 * kernel.numel(),
            "flops": 2 * s["B"] * frames * new * kernel.shape[1]}
