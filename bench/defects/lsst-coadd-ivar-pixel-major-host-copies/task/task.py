"""Inverse-variance weighted coadd of warped exposures (LSST AssembleCoaddTask statistic MEAN with
per-pixel inverse-variance weights, the SWarp COMBINE_TYPE=WEIGHTED combine).

N visits have been warped onto one patch: image_v, variance_v and the int32 mask plane mask_v
(afw bit planes: BAD=1, SAT=2, INTRP=4, CR=8, EDGE=16, DETECTED=32, NO_DATA=256). A sample enters the
coadd when (mask_v & bad_bits) == 0 and variance_v > 0; its weight is w_v = 1 / variance_v. Per pixel:

    coadd  = sum_v w_v * image_v / sum_v w_v          (0 where no sample is good)
    weight = sum_v w_v                                 (the coadd's inverse variance)
    n_img  = number of good samples                    (LSST's nImage map)

Pixels a visit does not cover carry NO_DATA, image 0 and variance +inf. Returns
(coadd [H, W] fp32, weight [H, W] fp32, n_img [H, W] int32).
"""
import math

import torch
import torch.nn.functional as F

META = {
    "name": "inverse_variance_coadd",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 6, "H": 24, "W": 40},
        "ragged": {"N": 5, "H": 19, "W": 37},
        "large": {"N": 24, "H": 4200, "W": 4200},
    },
    "baseline_notes": "One launch over blocks of 128 patch pixels; each program loads a [128, next_pow2(N)] "
                      "tile of image, variance and mask straight from the visit-major [N, H*W] stacks "
                      "(contiguous along pixels), forms the weights and reduces over the visit axis. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
BAD, SAT, INTRP, CR, EDGE, DETECTED, NO_DATA = 1, 2, 4, 8, 16, 32, 256
BAD_BITS = BAD | SAT | CR | NO_DATA
GAIN = 1.2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """images [N, H, W], variances [N, H, W], masks [N, H, W] int32, bad_bits (int)."""
    s = META["sizes"][size]
    n, H, W = s["N"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # the sky: point sources through a Gaussian PSF (FWHM ~4 px)
    n_src = max(3, H * W // 6000)
    truth = torch.zeros(H, W)
    truth.index_put_((torch.randint(0, H, (n_src,), generator=g), torch.randint(0, W, (n_src,), generator=g)),
                     150.0 * (1.0 - torch.rand(n_src, generator=g)) ** (-1.3), accumulate=True)
    r = torch.arange(13, dtype=torch.float32) - 6.0
    psf = torch.exp(-0.5 * (r / 1.7) ** 2)
    psf = psf / psf.sum()
    truth = F.conv2d(truth[None, None], psf.view(1, 1, 13, 1), padding=(6, 0))
    truth = F.conv2d(truth, psf.view(1, 1, 1, 13), padding=(0, 6))[0, 0]
    images = torch.empty(n, H, W)
    variances = torch.empty(n, H, W)
    masks = torch.zeros(n, H, W, dtype=torch.int32)
    cols = torch.arange(W)
    for v in range(n):
        sky_var = 250.0 + 350.0 * torch.rand(1, generator=g).item()       # depth varies by visit
        var = sky_var + truth.clamp(min=0) / GAIN
        variances[v] = var
        images[v] = truth + var.sqrt() * torch.randn(H, W, generator=g)
        m = masks[v]
        m[torch.rand(H, W, generator=g) < 1e-3] |= CR
        m[truth > 2.0e4] |= SAT
        m[truth > 3.0 * math.sqrt(sky_var)] |= DETECTED
        m[:, torch.randint(0, W, (max(1, W // 400),), generator=g)] |= BAD
        # the visit's CCD footprint covers only part of the patch (dither offset + a chip gap)
        x0 = int(torch.randint(0, max(1, W // 6), (1,), generator=g))
        gap = int(torch.randint(W // 3, 2 * W // 3, (1,), generator=g))
        off = (cols < x0) | ((cols >= gap) & (cols < gap + max(1, W // 100)))
        m[:, off] |= NO_DATA
        images[v][:, off] = 0.0
        variances[v][:, off] = float("inf")
    return (images.to(device=device, dtype=dt), variances.to(device=device, dtype=dt),
            masks.to(device), BAD_BITS)


def reference(images: torch.Tensor, variances: torch.Tensor, masks: torch.Tensor, bad_bits: int) -> tuple:
    x, var = images.double(), variances.double()
    good = ((masks & bad_bits) == 0) & (var > 0)
    w = torch.where(good, 1.0 / var, torch.zeros_like(var))
    wsum = w.sum(0)
    num = torch.where(good, w * x, torch.zeros_like(x)).sum(0)
    coadd = torch.where(wsum > 0, num / wsum.clamp(min=1e-300), torch.zeros_like(num))
    return coadd.to(images.dtype), wsum.to(images.dtype), good.sum(0).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, npix = s["N"], s["H"] * s["W"]
    return {"bytes": 12 * n * npix + 12 * npix, "flops": 5 * n * npix}
