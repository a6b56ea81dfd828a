"""IFRNet's final frame synthesis: backward-warp both (mean-subtracted) input frames by their full-resolution
intermediate flows (utils.warp = grid_sample bilinear, padding_mode="border", align_corners=True), blend them
with the occlusion mask, add back the frame mean and the residual, clamp to [0, 1].
out = clamp(mask * warp(img0, flow0) + (1 - mask) * warp(img1, flow1) + mean + res, 0, 1), [B, 3, H, W] fp32."""
import torch
import torch.nn.functional as F

META = {
    "name": "ifrnet_merge",
    "level": 2,
    "category": "gather",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "H": 9, "W": 13},
        "ragged": {"B": 1, "H": 17, "W": 31},
        "large": {"B": 1, "H": 2160, "W": 4096},
    },
    "baseline_notes": "One kernel, a 1-D grid over blocks of 1,024 pixels of each image: each program reads both "
                      "flows once, computes the two bilinear footprints, samples the three channels of both frames "
                      "and writes only the final clamped frame; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """img0, img1 [B, 3, H, W] (mean-subtracted), flow0, flow1 [B, 2, H, W] (smooth, up to ~40 px, some pointing
    past the border), mask [B, 1, H, W] in (0, 1), res [B, 3, H, W], mean [B]."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    b, h, w = s["B"], s["H"], s["W"]
    mean = torch.rand(b, generator=g) * 0.4 + 0.3
    img0 = torch.rand(b, 3, h, w, generator=g) - mean[:, None, None, None]
    img1 = torch.rand(b, 3, h, w, generator=g) - mean[:, None, None, None]

    def smooth_flow() -> torch.Tensor:
        coarse = torch.randn(b, 2, max(2, h // 64), max(2, w // 64), generator=g) * min(40.0, w / 4)
        return F.interpolate(coarse, size=(h, w), mode="bilinear", align_corners=False) + \
            torch.randn(b, 2, h, w, generator=g) * 0.5

    flow0, flow1 = smooth_flow(), smooth_flow()
    mask = torch.sigmoid(torch.randn(b, 1, h, w, generator=g) * 2.0)
    res = torch.randn(b, 3, h, w, generator=g) * 0.05
    return tuple(t.to(dt).to(device) for t in (img0, img1, flow0, flow1, mask, res, mean))


def _warp(img: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    b, c, h, w = img.shape
    ys = torch.arange(h, dtype=torch.float64, device=img.device)[None, :, None]
    xs = torch.arange(w, dtype=torch.float64, device=img.device)[None, None, :]
    x = (xs + flow[:, 0]).clamp(0.0, w - 1.0)
    y = (ys + flow[:, 1]).clamp(0.0, h - 1.0)
    x0 = x.floor().long().clamp(max=w - 1)
    y0 = y.floor().long().clamp(max=h - 1)
    x1 = (x0 + 1).clamp(max=w - 1)
    y1 = (y0 + 1).clamp(max=h - 1)
    lx, ly = x - x0, y - y0
    flat = img.reshape(b, c, h * w)

    def tap(yy: torch.Tensor, xx: torch.Tensor) -> torch.Tensor:
        idx = (yy * w + xx).reshape(b, 1, h * w).expand(b, c, h * w)
        return flat.gather(2, idx).reshape(b, c, h, w)

    wx, wy = lx[:, None], ly[:, None]
    return ((1 - wy) * (1 - wx) * tap(y0, x0) + (1 - wy) * wx * tap(y0, x1)
            + wy * (1 - wx) * tap(y1, x0) + wy * wx * tap(y1, x1))


def reference(img0: torch.Tensor, img1: torch.Tensor, flow0: torch.Tensor, flow1: torch.Tensor,
              mask: torch.Tensor, res: torch.Tensor, mean: torch.Tensor) -> torch.Tensor:
    d = [t.double() for t in (img0, img1, flow0, flow1, mask, res, mean)]
    w0, w1 = _warp(d[0], d[2]), _warp(d[1], d[3])
    out = d[4] * w0 + (1 - d[4]) * w1 + d[6][:, None, None, None] + d[5]
    return out.clamp(0.0, 1.0).to(img0.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["B"] * s["H"] * s["W"]
    return {"bytes": 4 * px * (3 + 3 + 2 + 2 + 1 + 3 + 3) + 4 * s["B"], "flops": 60 * px}
