"""HTDemucs spectral-branch input normalisation (demucs/htdemucs.py, HTDemucs.forward).

The complex-as-channels spectrogram of each mixture, x [B, 2*C_audio, Fr, T] (real and imaginary
parts of the stereo STFT stacked as 4 channels, Fr = nfft/2 = 2048 bins after dropping the Nyquist
bin, T = ceil(length / hop) frames), is standardised per batch item over all of its channels, bins
and frames:

    mean_b = x[b].mean()
    std_b  = x[b].std()            (unbiased, N - 1)
    out[b] = (x[b] - mean_b) / (1e-5 + std_b)

mean and std are kept (HTDemucs multiplies the decoder output back by std and adds mean). Returns
(out [B, C, Fr, T] fp32, mean [B] fp32, std [B] fp32).
"""
import torch

META = {
    "name": "htdemucs_spec_norm",
    "level": 2,
    "category": "normalization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 4, "F": 64, "T": 24},
        "ragged": {"B": 3, "C": 4, "F": 40, "T": 37},
        "large": {"B": 8, "C": 4, "F": 2048, "T": 336},
    },
    "baseline_notes": "Two launches over a (batch item, chunk) grid: each program reduces a 32K-element "
                      "chunk of its item to a partial sum and sum of squares (BLOCK=2048, 8 warps); the "
                      "second kernel folds the item's partials into mean / unbiased std and normalises its "
                      "chunk. ~670 programs at the large size, no autotune.",
    "deterministic": True,
}
SEGMENT_S = 39 / 5  # HTDemucs training / inference segment, seconds


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A spectrogram-like x [B, C, F, T]: complex parts with a 1/f-shaped spectral envelope, a
    per-frame loudness contour and a small per-item offset."""
    s = META["sizes"][size]
    b, c, f, t = s["B"], s["C"], s["F"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    envelope = 1.0 / (1.0 + torch.arange(f, dtype=torch.float32) / 24.0)
    loudness = 0.5 + torch.rand(b, 1, 1, t, generator=g)
    x = torch.randn(b, c, f, t, generator=g) * envelope[None, None, :, None] * loudness
    x += 0.01 * torch.randn(b, 1, 1, 1, generator=g)
    return (x.to(device=device, dtype=dt),)


def reference(x: torch.Tensor) -> tuple:
    xd = x.double()
    mean = xd.mean(dim=(1, 2, 3), keepdim=True)
    std = xd.std(dim=(1, 2, 3), keepdim=True)
    out = (xd - mean) / (1e-5 + std)
    return out.to(x.dtype), mean.flatten().to(x.dtype), std.flatten().to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["F"] * s["T"]
    return {"bytes": 12 * n, "flops": 5 * n}
