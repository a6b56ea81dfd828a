"""One Richardson-Lucy deconvolution iteration (scikit-image restoration.richardson_lucy, the
multiplicative update DeepInv's RL iterations share), on a batch of planes.

With scipy.signal.convolve(..., mode="same") (zero padding, odd K x K PSF, R = K // 2):
    conv          = convolve(estimate, psf, "same")
    relative_blur = where(conv < filter_epsilon, 0, image / conv)
    estimate_new  = estimate * convolve(relative_blur, psf[::-1, ::-1], "same")
convolve(x, psf, "same")[i, j] = sum_{a, c} psf[a, c] * x[i + R - a, j + R - c]; the mirrored PSF turns
the second convolution into the correlation sum_{a, c} psf[a, c] * x[i + a - R, j + c - R].
Returns estimate_new [P, H, W] (planes = batch x channels, each deconvolved on its own).
"""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "richardson_lucy_step",
    "level": 2,
    "category": "convolution",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"P": 2, "H": 20, "W": 36, "K": 5},
        "ragged": {"P": 3, "H": 17, "W": 29, "K": 7},
        "large": {"P": 12, "H": 1024, "W": 1024, "K": 9},
    },
    "baseline_notes": "Two launches of one correlation kernel (PSF flipped in the first, the ratio epilogue "
                      "in the first, the multiplicative update in the second). 40 programs (the A2's vector "
                      "cores) loop over [8, 256] output tiles of (plane, row block, column block); each of "
                      "the K x K taps is a shifted 2-D tile load with zero-padding masks and a scalar PSF "
                      "weight, accumulated in registers; no autotune.",
    "deterministic": True,
}
FILTER_EPSILON = 1e-6


def _gaussian_psf(k: int, sigma: float) -> torch.Tensor:
    r = torch.arange(k, dtype=torch.float64) - k // 2
    g = torch.exp(-(r[:, None] ** 2 + r[None, :] ** 2) / (2 * sigma * sigma))
    return g / g.sum()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Observed blurred noisy planes image [P, H, W] (> 0), the current estimate [P, H, W] (skimage
    starts from 0.5 everywhere; here a few iterations in), a normalised Gaussian PSF [K, K] and
    filter_epsilon."""
    s = META["sizes"][size]
    p, h, w, k = s["P"], s["H"], s["W"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    psf = _gaussian_psf(k, sigma=k / 4.0)
    yy = torch.linspace(0, 1, h, dtype=torch.float64)[:, None]
    xx = torch.linspace(0, 1, w, dtype=torch.float64)[None, :]
    scene = 0.2 + 0.6 * (torch.sin(2 * math.pi * 4 * xx) * torch.sin(2 * math.pi * 3 * yy) > 0).double()
    scene = scene[None] * (0.7 + 0.3 * torch.rand(p, 1, 1, generator=g, dtype=torch.float64))
    blurred = F.conv2d(scene[:, None], psf.flip(0, 1)[None, None], padding=k // 2)[:, 0]
    image = (blurred + 0.01 * torch.randn(p, h, w, generator=g, dtype=torch.float64)).clamp(min=1e-3)
    estimate = (image * (0.8 + 0.4 * torch.rand(p, h, w, generator=g, dtype=torch.float64))).clamp(min=1e-3)
    return (image.to(device=device, dtype=dt), estimate.to(device=device, dtype=dt),
            psf.to(device=device, dtype=dt), FILTER_EPSILON)


def reference(image: torch.Tensor, estimate: torch.Tensor, psf: torch.Tensor, filter_epsilon: float) -> torch.Tensor:
    img, est, k = image.double()[:, None], estimate.double()[:, None], psf.double()
    r = k.shape[0] // 2
    conv = F.conv2d(est, k.flip(0, 1)[None, None], padding=r)          # convolve(est, psf, "same")
    rel = torch.where(conv < filter_epsilon, torch.zeros_like(conv), img / conv)
    corr = F.conv2d(rel, k[None, None], padding=r)                     # convolve(rel, psf_mirror, "same")
    return (est * corr)[:, 0].to(estimate.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["P"] * s["H"] * s["W"]
    return {"bytes": 4 * 5 * n, "flops": 4 * s["K"] ** 2 * n + 4 * n}
