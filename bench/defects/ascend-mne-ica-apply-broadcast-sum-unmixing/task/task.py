"""Artifact removal with a fitted ICA (MNE-Python mne.preprocessing.ICA.apply(raw, exclude=[...])).

ICA._pick_sources pre-whitens the data, projects it on the PCA components, unmixes, zeroes the excluded
sources (EOG / ECG components), mixes back, un-whitens and adds back the PCA mean. All of that is linear,
so the host folds it into one [C, C] matrix and an offset once per fitted ICA:
    proj = W^-1 @ mixing[:, keep] @ unmixing[keep, :] @ pca_components[:n] @ W,   W = diag(1 / pre_whitener)
    offset = pca_mean - proj @ pca_mean
and the device applies it to every sample:
    out[c, t] = sum_k proj[c, k] * data[k, t] + offset[c]
Returns out [C, n_times] fp32 (volts), the cleaned Raw._data.
"""
import torch

META = {
    "name": "ica_apply_projection",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-7, "rtol": 1e-3}},  # volts: 0.1 uV on ~20 uV EEG
    "sizes": {
        "small": {"C": 8, "n_times": 200, "n_exclude": 2},
        "ragged": {"C": 7, "n_times": 333, "n_exclude": 1},
        # 64-channel EEG at 1 kHz, 20 minutes; 3 components (2 EOG, 1 ECG) excluded
        "large": {"C": 64, "n_times": 1_200_000, "n_exclude": 3},
    },
    "baseline_notes": "20 programs (the 910B4's AI cores: a tl.dot kernel runs on cube + vector) loop over blocks "
                      "of 128 samples; each block is acc[C, 128] = tl.dot(proj[C, 64], data[64, 128]) over the "
                      "channel (K) axis in chunks of 64 (one chunk for 64 channels) on the cube unit, plus the offset, "
                      "one store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """data [C, n_times] (volts), proj [C, C] and offset [C] folded from a synthetic fitted ICA."""
    s = META["sizes"][size]
    C, n, n_ex = s["C"], s["n_times"], s["n_exclude"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mixing = torch.randn(C, C, generator=g, dtype=torch.float64) + 4.0 * torch.eye(C, dtype=torch.float64)
    unmixing = torch.linalg.inv(mixing)
    keep = torch.ones(C, dtype=torch.float64)
    keep[torch.randperm(C, generator=g)[:n_ex]] = 0.0
    sd = 10e-6 * (1.0 + torch.rand(C, generator=g, dtype=torch.float64))          # pre-whitener, volts
    proj = (sd[:, None] * (mixing * keep[None, :]) @ unmixing) / sd[None, :]
    mean = torch.randn(C, generator=g, dtype=torch.float64) * 5e-6
    offset = mean - proj @ mean
    data = torch.randn(C, n, generator=g) * 20e-6
    data += mean.to(torch.float32)[:, None]
    return data.to(dt).to(device), proj.to(dt).to(device), offset.to(dt).to(device)


def reference(data: torch.Tensor, proj: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
    return (proj.double() @ data.double() + offset.double()[:, None]).to(data.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    C, n = s["C"], s["n_times"]
    return {"bytes": 8 * C * n + 4 * C * C + 4 * C, "flops": 2 * C * C * n}
