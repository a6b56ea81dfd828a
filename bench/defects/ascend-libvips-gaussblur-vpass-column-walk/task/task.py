"""Vertical pass of libvips' separable Gaussian blur (vips_gaussblur -> vips_convsep) on a float image.

vips_gaussblur(sigma, min_ampl=0.2) builds a 1 x N mask with vips_gaussmat: the half-width is the first
integer x with exp(-x^2 / (2 sigma^2)) < min_ampl, N = 2 * (x - 1) + 1, mask[i] = exp(-(i - N//2)^2 / (2 sigma^2))
and scale = sum(mask) (float precision, used for float images). vips_convsep runs the mask along x, then its
transpose along y; this task is the y pass. libvips embeds the input with VIPS_EXTEND_COPY before the conv
generator reads it, so the pass reads an image that already carries N//2 replicated rows above and below:
    out[y, x, b] = sum_t (mask[t] / scale) * src[y + t, x, b],   t = 0 .. N-1
on a band-interleaved float image (scRGB, 3 bands), src [H + N - 1, W, 3] -> out [H, W, 3].
"""
import math

import torch

META = {
    "name": "libvips_convsep_vertical",
    "level": 2,
    "category": "convolution",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 20, "W": 16, "bands": 3, "sigma": 3.0},
        "ragged": {"H": 23, "W": 13, "bands": 3, "sigma": 3.0},
        "large": {"H": 2160, "W": 3840, "bands": 3, "sigma": 3.0},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over output rows; each row is walked in "
                      "contiguous chunks of up to 1024 floats of the interleaved W*bands line, accumulating "
                      "the N taps (rows y .. y+N-1 of the embedded input, same columns) in fp32; no autotune.",
    "deterministic": True,
}


def gaussmat(sigma: float, min_ampl: float = 0.2) -> torch.Tensor:
    """vips_gaussmat(separable, precision=float) as a 1-D mask, divided by its scale (the sum)."""
    sig2 = 2.0 * sigma * sigma
    max_x = int(min(max(8 * sigma, 0), 5000))
    x = 0
    while x < max_x and math.exp(-(x * x) / sig2) >= min_ampl:
        x += 1
    width = 2 * max(x - 1, 0) + 1
    half = width // 2
    vals = torch.tensor([math.exp(-((i - half) ** 2) / sig2) for i in range(width)], dtype=torch.float64)
    return vals / vals.sum()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """src [H + N - 1, W, 3] (the edge-extended image the y pass reads) and the normalised mask [N]."""
    s = META["sizes"][size]
    h, w, bands = s["H"], s["W"], s["bands"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mask = gaussmat(s["sigma"])
    r = mask.numel() // 2
    yy = torch.linspace(0, 1, h)[:, None, None]
    xx = torch.linspace(0, 1, w)[None, :, None]
    phase = torch.rand(1, 1, bands, generator=g) * 6.0
    img = 0.5 + 0.3 * torch.sin(7.0 * xx + 5.0 * yy + phase) + 0.1 * torch.rand(h, w, bands, generator=g)
    img = img.clamp(0.0, 1.0)
    src = torch.cat([img[:1].expand(r, w, bands), img, img[-1:].expand(r, w, bands)], dim=0).contiguous()
    return src.to(dt).to(device), mask.to(dt).to(device)


def reference(src: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    n = mask.numel()
    h = src.shape[0] - n + 1
    s64, m64 = src.double(), mask.double()
    out = sum(m64[t] * s64[t:t + h] for t in range(n))
    return out.to(src.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = gaussmat(s["sigma"]).numel()
    c = s["W"] * s["bands"]
    return {"bytes": 4 * c * (2 * s["H"] + n - 1), "flops": 2 * n * s["H"] * c}
