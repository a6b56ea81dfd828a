"""Kaldi fbank frame preparation (torchaudio.compliance.kaldi.fbank's _get_window, snip_edges=True,
dither 0): cut 25 ms frames every 10 ms, remove each frame's DC offset, apply pre-emphasis
y[i] = x[i] - 0.97 x[i - 1] (x[-1] := x[0]), multiply by the Povey window and zero-pad to the
512-point FFT size. Input waveform [B, L] fp32 and window [400]; output frames [B, F, 512] fp32."""
import torch

META = {
    "name": "kaldi_fbank_frames",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "L": 4000},
        "ragged": {"B": 3, "L": 16123},
        "large": {"B": 64, "L": 480000},
    },
    "baseline_notes": "Grid of 40 programs (Atlas A2 vector cores), each over tiles of 16 frames x 512 samples: "
                      "two [16, 512] loads (frame and frame shifted by one sample), row means, window, one [16, 512] "
                      "store.",
    "deterministic": True,
}

WIN, SHIFT, NFFT, PREEMPH = 400, 160, 512, 0.97


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """waveform [B, L] (16 kHz speech-like: noise plus a DC offset and a few tones, in [-1, 1]) and the
    Povey window [400] = hann(400, periodic=False) ** 0.85."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.arange(s["L"], dtype=torch.float64) / 16000.0
    f0 = 100.0 + 200.0 * torch.rand(s["B"], 1, generator=g, dtype=torch.float64)
    wave = 0.3 * torch.sin(2 * torch.pi * f0 * t) + 0.1 * torch.sin(2 * torch.pi * 3.1 * f0 * t)
    wave = wave + 0.05 * torch.randn(s["B"], s["L"], generator=g, dtype=torch.float64) + 0.02
    window = torch.hann_window(WIN, periodic=False, dtype=torch.float64).pow(0.85)
    return wave.to(dt).contiguous().to(device), window.to(dt).to(device)


def reference(waveform: torch.Tensor, window: torch.Tensor) -> torch.Tensor:
    x = waveform.double()
    frames = x.unfold(1, WIN, SHIFT)
    frames = frames - frames.mean(dim=2, keepdim=True)
    prev = torch.cat([frames[..., :1], frames[..., :-1]], dim=2)
    frames = (frames - PREEMPH * prev) * window.double()
    out = torch.nn.functional.pad(frames, (0, NFFT - WIN))
    return out.to(waveform.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_frames = 1 + (s["L"] - WIN) // SHIFT
    return {"bytes": 4 * s["B"] * s["L"] + 4 * WIN + 4 * s["B"] * n_frames * NFFT,
            "flops": 6 * s["B"] * n_frames * WIN}
