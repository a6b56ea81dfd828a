"""Vocos ISTFT head, "same" padding: overlap-add of the windowed inverse-FFT frames [B, n_fft, L]
(torch.fft.irfft(..., dim=1) output, frame-major) into a waveform of L * hop samples, trimmed by
(n_fft - hop) / 2 at both ends and divided by the squared-window envelope."""
import torch
import torch.nn.functional as F

META = {
    "name": "vocos_istft_overlap_add",
    "level": 2,
    "category": "fft",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "N": 64, "H": 16, "L": 37},
        "ragged": {"B": 3, "N": 48, "H": 12, "L": 29},
        "large": {"B": 32, "N": 1024, "H": 256, "L": 2813},
    },
    "baseline_notes": "2-D grid (batch, block of 32 frames); each program builds a [next_pow2(hop), 32] tile of "
                      "output samples (sample-in-hop x frame), loads the n_fft/hop overlapping frame taps with the "
                      "frame axis contiguous, sums windowed taps and the squared-window envelope in fp32 and "
                      "stores the tile to the waveform; 8 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """frames [B, n_fft, L] (irfft of the predicted spectrum, frame index last), the periodic Hann window
    [n_fft] and the hop length."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    frames = torch.randn(s["B"], s["N"], s["L"], generator=g) * 0.1
    window = torch.hann_window(s["N"], periodic=True)
    return frames.to(dt).to(device), window.to(dt).to(device), s["H"]


def reference(frames: torch.Tensor, window: torch.Tensor, hop: int) -> torch.Tensor:
    B, N, L = frames.shape
    pad = (N - hop) // 2
    out_size = (L - 1) * hop + N
    w = window.double()
    y = F.fold(frames.double() * w[None, :, None], output_size=(1, out_size), kernel_size=(1, N),
               stride=(1, hop))[:, 0, 0, pad:-pad]
    env = F.fold(w.square()[None, :, None].expand(1, N, L), output_size=(1, out_size), kernel_size=(1, N),
                 stride=(1, hop)).squeeze()[pad:-pad]
    return (y / env).to(frames.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    samples = s["B"] * s["L"] * s["H"]
    taps = s["N"] // s["H"]
    return {"bytes": 4 * (s["B"] * s["N"] * s["L"] + s["N"] + samples), "flops": samples * (4 * taps + 1)}
