"""Seed-to-voxel functional connectivity map (nilearn seed-based correlation, then Fisher z).

The cleaned signals (nilearn.signal.clean: detrended, band-passed, confounds regressed) of every
voxel / grayordinate are a [T, V] matrix, time along rows as maskers return them; the seed is the
mean signal of a sphere [T]. For every voxel v
    r_v = sum_t (x_tv - mean_v)(s_t - mean_s) / sqrt(sum_t (x_tv - mean_v)^2 * sum_t (s_t - mean_s)^2)
    z_v = arctanh(r_v)
(the nilearn example standardises both with zscore and takes brain.T @ seed / T, which is the same
Pearson r). Returns z [V] fp32.
"""
import torch

META = {
    "name": "seed_to_voxel_fisher_z",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 37, "V": 300},
        "ragged": {"T": 50, "V": 517},
        "large": {"T": 1200, "V": 91282},
    },
    "baseline_notes": "40 programs (the A2's vector cores); each first sums the seed and its square over T, then "
                      "loops over blocks of 128 voxels: [32 frames, 128 voxels] tiles (voxels on the contiguous "
                      "axis) are added into three [32, 128] accumulators (x, x^2, x*s) that are reduced along "
                      "time after the loop, then r and arctanh per voxel, one store per block; no autotune.",
    "deterministic": True,
}


def _lowpass(x: torch.Tensor, width: int) -> torch.Tensor:
    """Moving average along time (dim 0), a crude stand-in for the 0.01-0.1 Hz band-pass."""
    k = torch.ones(1, 1, width, dtype=x.dtype) / width
    y = torch.nn.functional.conv1d(x.T.unsqueeze(1), k, padding=width // 2)[:, 0, : x.shape[0]]
    return y.T.contiguous()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """signals [T, V] (cleaned, zero-mean per voxel), seed_ts [T] (mean signal of the seed sphere)."""
    s = META["sizes"][size]
    T, V = s["T"], s["V"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    seed_ts = _lowpass(torch.randn(T, 1, generator=g), 5)[:, 0]
    coupling = torch.rand(V, generator=g) * 1.6 - 0.8
    noise = _lowpass(torch.randn(T, V, generator=g), 3)
    scale = 0.5 + 2.0 * torch.rand(V, generator=g)
    signals = (coupling[None, :] * seed_ts[:, None] / seed_ts.std() + noise / noise.std()) * scale[None, :]
    signals = signals - signals.mean(0, keepdim=True)
    return signals.to(dt).to(device), seed_ts.to(dt).to(device)


def reference(signals: torch.Tensor, seed_ts: torch.Tensor) -> torch.Tensor:
    x = signals.double()
    s = seed_ts.double()
    xc = x - x.mean(0, keepdim=True)
    sc = s - s.mean()
    r = (xc * sc[:, None]).sum(0) / torch.sqrt((xc * xc).sum(0) * (sc * sc).sum())
    return torch.atanh(r).to(signals.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    T, V = s["T"], s["V"]
    return {"bytes": 4 * (T * V + T + V), "flops": 6 * T * V}
