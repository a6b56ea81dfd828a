"""Modulated deformable im2col (DCNv2), as in mmcv's modulated_deformable_im2col and torchvision deform_conv2d.

3 x 3 kernel, stride 1, padding 1, dilation 1, one deformable group. For input channel c, kernel tap
k = kh * 3 + kw and output pixel (ho, wo) the column entry is
    mask[b, k, ho, wo] * bilinear(x[b, c], ho - 1 + kh + offset[b, 2k, ho, wo], wo - 1 + kw + offset[b, 2k + 1, ho, wo])
with mmcv's bilinear rule: a sample is 0 unless -1 < h < H and -1 < w < W, and corners outside the
plane count as 0. Output columns [B, C * 9, H * W] (row c * 9 + k).
"""
import torch

META = {
    "name": "dcnv2_im2col",
    "level": 2,
    "category": "conv",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 1, "C": 4, "H": 6, "W": 7},
        "ragged": {"B": 2, "C": 3, "H": 9, "W": 11},
        "large": {"B": 8, "C": 256, "H": 40, "W": 40},
    },
    "baseline_notes": "40 programs loop over the (sample, channel) planes: each loads its input plane "
                      "contiguously into the UB once, then for every tap and 512-pixel tile loads the "
                      "offsets and mask, computes the bilinear corners and weights and picks the four "
                      "corner values from the plane with tl.gather; fp32; no autotune.",
    "deterministic": True,
}
KH = KW = 3


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, H, W], offset [B, 18, H, W] (dy, dx per tap), mask [B, 9, H, W] in (0, 1)."""
    s = META["sizes"][size]
    B, C, H, W = s["B"], s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(B, C, H, W, generator=g)
    offset = 2.0 * torch.randn(B, 2 * KH * KW, H, W, generator=g)
    mask = torch.sigmoid(torch.randn(B, KH * KW, H, W, generator=g))
    return x.to(dt).to(device), offset.to(dt).to(device), mask.to(dt).to(device)


def _corner(plane, hh, ww, H, W):
    ok = (hh >= 0) & (hh < H) & (ww >= 0) & (ww < W)
    idx = (hh.clamp(0, H - 1) * W + ww.clamp(0, W - 1)).long()
    return torch.where(ok, torch.gather(plane, 2, idx), torch.zeros((), dtype=plane.dtype, device=plane.device))


def reference(x: torch.Tensor, offset: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    B, C, H, W = x.shape
    xd = x.double()
    ho = torch.arange(H, device=x.device, dtype=torch.float64)[:, None]
    wo = torch.arange(W, device=x.device, dtype=torch.float64)[None, :]
    cols = torch.empty(B, C, KH * KW, H * W, dtype=torch.float64, device=x.device)
    for k in range(KH * KW):
        kh, kw = divmod(k, KW)
        h = (ho - 1 + kh + offset[:, 2 * k].double()).reshape(B, 1, H * W)
        w = (wo - 1 + kw + offset[:, 2 * k + 1].double()).reshape(B, 1, H * W)
        h0, w0 = torch.floor(h), torch.floor(w)
        lh, lw = h - h0, w - w0
        plane = xd.reshape(B, C, H * W)
        idx_shape = (B, C, H * W)
        hl, wl = h0.expand(idx_shape), w0.expand(idx_shape)
        val = ((1 - lh) * (1 - lw) * _corner(plane, hl, wl, H, W)
               + (1 - lh) * lw * _corner(plane, hl, wl + 1, H, W)
               + lh * (1 - lw) * _corner(plane, hl + 1, wl, H, W)
               + lh * lw * _corner(plane, hl + 1, wl + 1, H, W))
        inside = (h > -1) & (h < H) & (w > -1) & (w < W)
        val = torch.where(inside, val, torch.zeros((), dtype=val.dtype, device=val.device))
        cols[:, :, k] = val * mask[:, k].double().reshape(B, 1, H * W)
    return cols.reshape(B, C * KH * KW, H * W).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, C, HW = s["B"], s["C"], s["H"] * s["W"]
    taps = KH * KW
    return {"bytes": 4 * (B * C * HW + 3 * taps * B * HW + taps * B * C * HW),
            "flops": 20 * taps * B * C * HW}
