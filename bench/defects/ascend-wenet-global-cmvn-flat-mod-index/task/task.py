"""WeNet GlobalCMVN (wenet/transformer/cmvn.py) on a padded batch of log-mel filterbank features.

The encoder's first step normalises every frame with the global statistics that
tools/compute_cmvn_stats.py accumulated over the training set:
    out[b, t, f] = (feats[b, t, f] - mean[f]) * istd[f]          (norm_var=True)
feats [B, T, F] fp32 (Kaldi-style fbank, F = 80 mel bins; 83 with pitch), mean [F], istd [F] fp32.
Padded frames are normalised like the others (WeNet masks them later in the encoder).
"""
import torch

META = {
    "name": "wenet_global_cmvn",
    "level": 1,
    "category": "speech",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 2, "T": 37, "F": 80},
        "ragged": {"B": 3, "T": 53, "F": 83},
        "large": {"B": 128, "T": 1500, "F": 80},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 64 frames x all mel bins "
                      "(a [64, next_power_of_2(F)] tile, contiguous rows of F values); mean and istd are "
                      "loaded as [F] vectors and broadcast over the frames; one load and one store per "
                      "block; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """feats [B, T, F] (log-mel energies around 8-14 with a per-bin tilt), mean [F], istd [F]."""
    s = META["sizes"][size]
    B, T, F = s["B"], s["T"], s["F"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    tilt = torch.linspace(13.0, 8.0, F)
    feats = tilt + 2.5 * torch.randn(B, T, F, generator=g)
    mean = tilt + 0.3 * torch.randn(F, generator=g)
    istd = 1.0 / (2.5 + 0.5 * torch.rand(F, generator=g))
    return feats.to(dt).to(device), mean.to(dt).to(device), istd.to(dt).to(device)


def reference(feats: torch.Tensor, mean: torch.Tensor, istd: torch.Tensor) -> torch.Tensor:
    return ((feats.double() - mean.double()) * istd.double()).to(feats.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["T"] * s["F"]
    return {"bytes": 8 * n + 8 * s["F"], "flops": 2 * n}
