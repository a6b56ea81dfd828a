"""Matched-filter detection image of sep / SExtractor (sep.extract(..., filter_kernel=K, filter_type="matched")).

Before thresholding, sep convolves the background-subtracted image with the detection kernel K (a
sampled PSF) and, when a per-pixel noise map is given, applies the matched filter

    T[y, x] = sum_{j,i} K[j,i] * D[y+j-KH//2, x+i-KW//2] * W[...]  /  sqrt( sum_{j,i} K[j,i]^2 * W[...] )

with W = 1 / sigma^2 the inverse-variance weight map (SExtractor's MAP_WEIGHT; 0 on bad pixels).
Taps that fall outside the image contribute nothing to either sum (the kernel is truncated at the
border); pixels whose denominator is 0 get T = 0. T is in units of the local noise, so detection
is T > thresh. Returns T [H, W] fp32.
"""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "matched_filter_detection",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 20, "W": 36, "K": 5, "n_stars": 4},
        "ragged": {"H": 23, "W": 45, "K": 5, "n_stars": 4},
        "large": {"H": 4072, "W": 4000, "K": 7, "n_stars": 3000},
    },
    "baseline_notes": "One launch: each program filters one image row over a block of 256 columns, walking "
                      "the KH x KW taps with both sums (K*D*W and K^2*W) kept in registers, then writes "
                      "num / sqrt(den). 4 warps, no autotune.",
    "deterministic": True,
}
SKY_SIGMA = 18.0   # ADU, sky noise of a background-subtracted LSST-like CCD
GAIN = 1.6         # e-/ADU
FWHM = 3.0         # PSF FWHM in pixels (SExtractor's gauss_3.0_7x7.conv)


def gauss_kernel(k: int, fwhm: float = FWHM) -> torch.Tensor:
    s = fwhm / (2.0 * math.sqrt(2.0 * math.log(2.0)))
    r = torch.arange(k, dtype=torch.float64) - (k - 1) / 2.0
    g = torch.exp(-0.5 * (r / s) ** 2)
    k2 = g[:, None] * g[None, :]
    return k2 / k2.sum()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Background-subtracted image D [H, W], inverse-variance weight map W [H, W], kernel K [K, K]."""
    s = META["sizes"][size]
    H, W, K, n = s["H"], s["W"], s["K"], s["n_stars"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # point sources: delta image convolved with a separable Gaussian PSF
    stars = torch.zeros(H, W)
    ys = torch.randint(0, H, (n,), generator=g)
    xs = torch.randint(0, W, (n,), generator=g)
    flux = 200.0 * (1.0 - torch.rand(n, generator=g)) ** (-1.2)        # power-law fluxes
    stars.index_put_((ys, xs), flux, accumulate=True)
    psf1 = gauss_kernel(11, FWHM).sum(1).float()
    stars = F.conv2d(stars[None, None], psf1.view(1, 1, 11, 1), padding=(5, 0))
    stars = F.conv2d(stars, psf1.view(1, 1, 1, 11), padding=(0, 5))[0, 0]
    var = SKY_SIGMA ** 2 + stars.clamp(min=0) / GAIN
    image = stars + var.sqrt() * torch.randn(H, W, generator=g)
    weight = 1.0 / var
    # bad columns and a few hot pixels carry zero weight
    bad_cols = torch.randint(0, W, (max(1, W // 500),), generator=g)
    weight[:, bad_cols] = 0.0
    hot = torch.rand(H, W, generator=g) < 2e-4
    weight[hot] = 0.0
    kern = gauss_kernel(K).float()
    return image.to(device=device, dtype=dt), weight.to(device=device, dtype=dt), kern.to(device=device, dtype=dt)


def reference(image: torch.Tensor, weight: torch.Tensor, kernel: torch.Tensor) -> torch.Tensor:
    d, w, k = image.double(), weight.double(), kernel.double()
    kh, kw = k.shape
    pad = (kh // 2, kw // 2)
    num = F.conv2d((d * w)[None, None], k[None, None], padding=pad)[0, 0]
    den = F.conv2d(w[None, None], (k * k)[None, None], padding=pad)[0, 0]
    t = torch.where(den > 0, num / den.clamp(min=1e-300).sqrt(), torch.zeros_like(num))
    return t.to(image.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 12 * n, "flops": 5 * n * s["K"] * s["K"]}
