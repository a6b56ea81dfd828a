"""Vertical Lanczos3 shrink of libvips' resize (vips_resize -> vips_reducev, kernel=VIPS_KERNEL_LANCZOS3).

vips_reducev(vshrink) makes out->Ysize = round(H / vshrink) lines from an input embedded with VIPS_EXTEND_COPY
by n_point/2 lines, n_point = 2 * rint(3 * vshrink) + 1 taps. Output line oy is centred on input
Y = (oy + 0.5) * vshrink - 0.5; its taps are the n_point consecutive (embedded) input lines from
row0[oy] = floor(Y) + 1, weighted by the Lanczos3 window of the distance scaled by the shrink,
    w[oy, i] = L3((row0[oy] - n_point//2 + i - Y) / vshrink),  L3(x) = sinc(x) sinc(x/3) for |x| < 3,
normalised to sum 1 (vips_reduce_make_mask). Per output line, on a band-interleaved float image (scRGB,
3 bands, a linear-light thumbnail):
    out[oy, x, b] = sum_i w[oy, i] * src[row0[oy] + i, x, b]
Inputs: the embedded image src [Hs, W, 3] fp32, row0 [OH] int32, w [OH, n_point] fp32 (libvips precomputes its
masks too); output [OH, W, 3] fp32.
"""
import math

import torch

META = {
    "name": "libvips_reducev_lanczos3",
    "level": 2,
    "category": "resample",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 16, "W": 12, "bands": 3, "vshrink": 2.0},
        "ragged": {"H": 23, "W": 13, "bands": 3, "vshrink": 2.5},
        "large": {"H": 2160, "W": 3840, "bands": 3, "vshrink": 2.0},
    },
    "baseline_notes": "One launch of 40 programs (the 910B4's vector cores) that loop over (output line, "
                      "1024-float chunk of the interleaved W*bands line) work items; each item accumulates its "
                      "n_point taps (contiguous chunks of consecutive embedded input lines, scalar weights) in "
                      "fp32 and stores one chunk; no autotune.",
    "deterministic": True,
}


def _lanczos3(x: float) -> float:
    if x == 0.0:
        return 1.0
    if abs(x) >= 3.0:
        return 0.0
    px = math.pi * x
    return 3.0 * math.sin(px) * math.sin(px / 3.0) / (px * px)


def tables(h: int, vshrink: float) -> tuple:
    """(output lines, n_point, top padding, row0 list, weight rows) as vips_reducev would use them."""
    n_point = 2 * int(round(3 * vshrink)) + 1
    oh = max(1, int(math.floor(h / vshrink + 0.5)))
    pad = n_point // 2
    row0, wts = [], []
    for oy in range(oh):
        y = (oy + 0.5) * vshrink - 0.5
        r0 = int(math.floor(y)) + 1
        ws = [_lanczos3((r0 - pad + i - y) / vshrink) for i in range(n_point)]
        s = sum(ws)
        row0.append(r0)
        wts.append([v / s for v in ws])
    return oh, n_point, pad, row0, wts


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """src [Hs, W, 3] (edge-extended image), row0 [OH] int32, weights [OH, n_point]."""
    s = META["sizes"][size]
    h, w, bands = s["H"], s["W"], s["bands"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    oh, n_point, pad, row0, wts = tables(h, s["vshrink"])
    bottom = max(0, max(row0) + n_point - pad - h)
    yy = torch.linspace(0, 1, h)[:, None, None]
    xx = torch.linspace(0, 1, w)[None, :, None]
    phase = torch.rand(1, 1, bands, generator=g) * 6.0
    img = 0.5 + 0.3 * torch.sin(9.0 * xx + 23.0 * yy + phase) + 0.15 * torch.rand(h, w, bands, generator=g)
    img = img.clamp(0.0, 1.0)
    src = torch.cat([img[:1].expand(pad, w, bands), img, img[-1:].expand(bottom, w, bands)], dim=0).contiguous()
    return (src.to(dt).to(device), torch.tensor(row0, dtype=torch.int32, device=device),
            torch.tensor(wts, dtype=torch.float64).to(dt).to(device))


def reference(src: torch.Tensor, row0: torch.Tensor, wts: torch.Tensor) -> torch.Tensor:
    n_point = wts.shape[1]
    idx = row0.long()[:, None] + torch.arange(n_point, device=src.device)[None, :]
    taps = src.double()[idx]                       # [OH, n_point, W, bands]
    out = (wts.double()[:, :, None, None] * taps).sum(dim=1)
    return out.to(src.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    oh, n_point, _, _, _ = tables(s["H"], s["vshrink"])
    c = s["W"] * s["bands"]
    return {"bytes": 4 * c * (s["H"] + n_point - 1 + oh), "flops": 2 * n_point * oh * c}
