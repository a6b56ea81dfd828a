"""Frequency-domain cross-correlation with window stacking (NoisePy noise_module.correlate, cc_method="xcorr").

For one virtual source station and a set of receivers, NoisePy S2 correlates the whitened window spectra of
the source with those of every receiver and averages over the windows that passed the amplitude check
(std of the window below max_over_std on both stations):

    corr[r, k] = sum_w keep[r, w] * conj(S[w, k]) * X[r, w, k] / max(sum_w keep[r, w], 1)

(no window kept -> zeros). The inverse FFT to the lag domain follows outside the kernel. Spectra are planar
fp32: S_re, S_im [W, F], X_re, X_im [R, W, F]; keep [R, W] fp32 0/1. Returns (corr_re, corr_im), [R, F].
"""
import math

import torch

META = {
    "name": "noisepy_xcorr_window_stack",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"R": 3, "W": 6, "F": 200},
        "ragged": {"R": 2, "W": 7, "F": 333},
        # 16 receivers against one source, one day: 188 windows of 1800 s at 20 Hz -> 18000 bins
        "large": {"R": 16, "W": 188, "F": 18000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (receiver, 2048-bin block) items; each walks "
                      "the windows with contiguous loads of the source and receiver spectra, keeps the conj(S)*X "
                      "sums and the window count in registers and stores the mean once; no autotune.",
    "deterministic": True,
}


def _whitened(shape: tuple, g: torch.Generator) -> tuple:
    phase = (torch.rand(*shape, generator=g, dtype=torch.float64) * 2.0 - 1.0) * math.pi
    nf = shape[-1]
    k = torch.arange(nf, dtype=torch.float64)
    taper = torch.clamp(torch.minimum(k / max(nf // 20, 1), (nf - 1 - k) / max(nf // 5, 1)), 0.0, 1.0)
    return taper * torch.cos(phase), taper * torch.sin(phase)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """S_re, S_im [W, F]; X_re, X_im [R, W, F]; keep [R, W]."""
    s = META["sizes"][size]
    R, W, F = s["R"], s["W"], s["F"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    s_re, s_im = _whitened((W, F), g)
    n_re, n_im = _whitened((R, W, F), g)
    # receivers share part of the source's phase (a coherent arrival) on top of their own noise
    x_re, x_im = 0.6 * s_re[None] + 0.4 * n_re, 0.6 * s_im[None] + 0.4 * n_im
    keep = (torch.rand(R, W, generator=g) > 0.15).to(torch.float64)
    if R > 2:
        keep[-1, :] = 0.0                              # a receiver with no usable window
    out = (s_re, s_im, x_re, x_im, keep)
    return tuple(t.to(dt).to(device) for t in out)


def reference(s_re, s_im, x_re, x_im, keep) -> tuple:
    a, b = s_re.double()[None], s_im.double()[None]
    c, d = x_re.double(), x_im.double()
    k = keep.double()[:, :, None]
    n = keep.double().sum(1).clamp(min=1.0)[:, None]
    re = (k * (a * c + b * d)).sum(1) / n
    im = (k * (a * d - b * c)).sum(1) / n
    return re.to(s_re.dtype), im.to(s_re.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    R, W, F = s["R"], s["W"], s["F"]
    return {"bytes": 8 * R * W * F + 8 * W * F + 4 * R * W + 8 * R * F, "flops": 9 * R * W * F}
