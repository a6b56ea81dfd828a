"""Slice-timing correction by Hanning-windowed sinc interpolation (FSL slicetimer; ANTs SliceTimingCorrection).

Slice z of every volume is acquired tau_z seconds into the TR; slicetimer shifts each voxel's time
series so that all slices are sampled at the middle of the TR. With d_z = 0.5 - tau_z / TR (in TRs)
the corrected sample is the windowed-sinc interpolation of the slice's own samples,
    y[t, z, v] = sum_{j=0}^{2R} w[z, j] * x[clamp(t + j - R, 0, T - 1), z, v]
    w[z, j] ~ sinc(d_z - (j - R)) * hann((d_z - (j - R)) / R),  normalised to sum 1 per slice,
with sinc radius R = 4 and the edge frames repeated. The per-slice kernel w [Z, 2R + 1] is built once
per acquisition protocol on the host (it is an input here); the 4-D series is [T, Z, Y, X] fp32 in
NIfTI volume order. Returns y [T, Z, Y, X] fp32.
"""
import math

import torch

META = {
    "name": "slice_timing_sinc",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 12, "Z": 4, "Y": 6, "X": 10},
        "ragged": {"T": 9, "Z": 5, "Y": 7, "X": 11},
        "large": {"T": 383, "Z": 60, "Y": 90, "X": 90},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over work items (frame t, slice z, block of 1024 "
                      "in-plane voxels), decoded from the item number with scalar // and %; per item 9 tap rows "
                      "are loaded contiguously at the clamped frame t + j - 4 with that slice's scalar weights, "
                      "summed and stored once; no autotune.",
    "deterministic": True,
}
RADIUS = 4
TR = 0.8


def slice_kernel(slice_times: torch.Tensor, tr: float, radius: int = RADIUS) -> torch.Tensor:
    """Per-slice windowed-sinc weights [Z, 2R + 1] (fp64) shifting every slice to the middle of the TR."""
    d = 0.5 - slice_times.double() / tr
    k = torch.arange(-radius, radius + 1, dtype=torch.float64)
    u = d[:, None] - k[None, :]
    w = torch.sinc(u) * torch.where(u.abs() < radius, 0.5 * (1.0 + torch.cos(math.pi * u / radius)),
                                    torch.zeros_like(u))
    return w / w.sum(1, keepdim=True)


def _slice_times(Z: int, tr: float) -> torch.Tensor:
    """Interleaved multiband order (ABCD-style MB 6 when the slice count allows it)."""
    mb = 6 if Z % 6 == 0 and Z >= 12 else 1
    groups = Z // mb
    order = list(range(0, groups, 2)) + list(range(1, groups, 2))
    shot = torch.empty(groups, dtype=torch.float64)
    for i, g in enumerate(order):
        shot[g] = i * tr / groups
    return shot[torch.arange(Z) % groups]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """bold [T, Z, Y, X] (scanner units ~1000 with slow fluctuations), weights [Z, 2R + 1]."""
    s = META["sizes"][size]
    T, Z, Y, X = s["T"], s["Z"], s["Y"], s["X"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    base = 600.0 + 800.0 * torch.rand(1, Z, Y, X, generator=g)
    phase = torch.rand(1, Z, Y, X, generator=g) * 2 * math.pi
    freq = 0.01 + 0.09 * torch.rand(1, Z, Y, X, generator=g)
    t = (torch.arange(T, dtype=torch.float32) * TR).view(T, 1, 1, 1)
    bold = base * (1.0 + 0.02 * torch.sin(2 * math.pi * freq * t + phase)) + 5.0 * torch.randn(T, Z, Y, X, generator=g)
    weights = slice_kernel(_slice_times(Z, TR), TR)
    return bold.to(dt).to(device), weights.to(dt).to(device)


def reference(bold: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    T = bold.shape[0]
    taps = weights.shape[1]
    radius = (taps - 1) // 2
    x = bold.double()
    w = weights.double()
    y = torch.zeros_like(x)
    frames = torch.arange(T, device=bold.device)
    for j in range(taps):
        src = (frames + j - radius).clamp(0, T - 1)
        y += w[:, j].view(1, -1, 1, 1) * x[src]
    return y.to(bold.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["T"] * s["Z"] * s["Y"] * s["X"]
    return {"bytes": 8 * n, "flops": 2 * (2 * RADIUS + 1) * n}
