"""RoIAlign forward (torchvision.ops.roi_align, aligned=False) as used by the Mask R-CNN mask-head pooler:
features [N, C, H, W] fp32, rois [K, 5] = (batch index, x1, y1, x2, y2) in image pixels, output
[K, C, P, P] averaged over a sampling_ratio x sampling_ratio grid of bilinear samples per bin."""
import torch

META = {
    "name": "roi_align",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 2, "C": 8, "H": 12, "W": 20, "K": 5, "P": 4, "scale": 0.25, "sr": 2},
        "ragged": {"N": 2, "C": 13, "H": 11, "W": 17, "K": 7, "P": 5, "scale": 0.25, "sr": 2},
        "large": {"N": 1, "C": 256, "H": 200, "W": 336, "K": 100, "P": 14, "scale": 0.25, "sr": 2},
    },
    "baseline_notes": "2-D grid (RoI, block of 16 channels): each program computes its RoI's P*P*sr*sr sample "
                      "coordinates and bilinear weights once, gathers [16 channels, P*P bins] tiles for the four "
                      "corners of each sample and writes a [16, P*P] output tile; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """features [N, C, H, W], rois [K, 5] (a few boxes poke past the image border), P, spatial_scale,
    sampling_ratio."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    img_h, img_w = s["H"] / s["scale"], s["W"] / s["scale"]
    feat = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g)
    k = s["K"]
    w = torch.exp(torch.rand(k, generator=g) * 3.0) * img_w / 24.0
    h = w * torch.exp(torch.randn(k, generator=g) * 0.4)
    cx = torch.rand(k, generator=g) * img_w
    cy = torch.rand(k, generator=g) * img_h
    x1 = (cx - w / 2).clamp(-0.1 * img_w, img_w)
    y1 = (cy - h / 2).clamp(-0.1 * img_h, img_h)
    x2 = (cx + w / 2).clamp(max=1.1 * img_w)
    y2 = (cy + h / 2).clamp(max=1.1 * img_h)
    bidx = torch.randint(0, s["N"], (k,), generator=g).float()
    rois = torch.stack([bidx, x1, y1, x2, y2], dim=1)
    return feat.to(dt).to(device), rois.to(dt).to(device), s["P"], s["scale"], s["sr"]


def reference(features: torch.Tensor, rois: torch.Tensor, pooled: int, spatial_scale: float,
              sampling_ratio: int) -> torch.Tensor:
    f = features.double()
    r = rois.double()
    _, c, h, w = f.shape
    k = r.shape[0]
    b = r[:, 0].long()
    x0, y0 = r[:, 1] * spatial_scale, r[:, 2] * spatial_scale
    rw = (r[:, 3] * spatial_scale - x0).clamp(min=1.0)
    rh = (r[:, 4] * spatial_scale - y0).clamp(min=1.0)
    bw, bh = rw / pooled, rh / pooled
    p = torch.arange(pooled, dtype=torch.float64, device=f.device)
    s = (torch.arange(sampling_ratio, dtype=torch.float64, device=f.device) + 0.5) / sampling_ratio
    # sample coordinates [K, P, sr]
    ys = y0[:, None, None] + (p[None, :, None] + s[None, None, :]) * bh[:, None, None]
    xs = x0[:, None, None] + (p[None, :, None] + s[None, None, :]) * bw[:, None, None]
    ys = ys[:, :, :, None, None].expand(k, pooled, sampling_ratio, pooled, sampling_ratio)
    xs = xs[:, None, None, :, :].expand(k, pooled, sampling_ratio, pooled, sampling_ratio)
    valid = (ys >= -1.0) & (ys <= h) & (xs >= -1.0) & (xs <= w)
    y = ys.clamp(min=0.0)
    x = xs.clamp(min=0.0)
    y_lo = y.floor().long()
    x_lo = x.floor().long()
    y_top = y_lo >= h - 1
    x_top = x_lo >= w - 1
    y_lo = torch.where(y_top, h - 1, y_lo)
    x_lo = torch.where(x_top, w - 1, x_lo)
    y = torch.where(y_top, y_lo.double(), y)
    x = torch.where(x_top, x_lo.double(), x)
    y_hi = torch.where(y_top, y_lo, y_lo + 1)
    x_hi = torch.where(x_top, x_lo, x_lo + 1)
    ly, lx = y - y_lo, x - x_lo
    hy, hx = 1.0 - ly, 1.0 - lx
    bb = b[:, None, None, None, None].expand_as(y_lo)
    out = torch.zeros(k, pooled, sampling_ratio, pooled, sampling_ratio, c, dtype=torch.float64, device=f.device)
    fl = f.permute(0, 2, 3, 1)
    for yy, xx, wt in ((y_lo, x_lo, hy * hx), (y_lo, x_hi, hy * lx), (y_hi, x_lo, ly * hx), (y_hi, x_hi, ly * lx)):
        out += (wt * valid)[..., None] * fl[bb, yy, xx]
    out = out.sum(dim=(2, 4)) / (sampling_ratio * sampling_ratio)
    return out.permute(0, 3, 1, 2).contiguous().to(features.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    samples = s["K"] * s["C"] * s["P"] * s["P"] * s["sr"] * s["sr"]
    touched = min(s["N"] * s["C"] * s["H"] * s["W"], 4 * samples)
    return {"bytes": 4 * touched + 20 * s["K"] + 4 * s["K"] * s["C"] * s["P"] * s["P"],
            "flops": 8 * samples}
