"""Per-channel piecewise-linear tone curve (Android camera2 TONEMAP_MODE_CONTRAST_CURVE, android.tonemap.curve*).

rgb [3, H, W] is the linear 16-bit output of the colour-correction stage; each channel c has its own curve of
P control points (curve_x[c], curve_y[c]) with curve_x increasing from 0 to 1 (P = maxCurvePoints = 64 here,
placed densely in the shadows). v = rgb / 65535 is mapped by linear interpolation between the two control
points around it (the last point's output at v = 1); the result is the gamma-encoded value in [0, 1].
"""
import torch

P = 64

META = {
    "name": "tonemap_contrast_curve",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 16, "W": 24},
        "ragged": {"H": 19, "W": 37},
        "large": {"H": 3040, "W": 4056},
    },
    "baseline_notes": "2-D grid (block of 1024 pixels, channel): each element finds its curve segment by a "
                      "6-step binary search over the channel's interior control points (gathers from the "
                      "64-entry table), then interpolates between the segment's two points; fp32 out; "
                      "4 warps, no autotune.",
    "deterministic": True,
}


def _srgb_oetf(x: torch.Tensor) -> torch.Tensor:
    return torch.where(x <= 0.0031308, 12.92 * x, 1.055 * x.clamp(min=0.0031308) ** (1 / 2.4) - 0.055)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rgb [3, H, W] uint16 (linear), curve_x [3, P], curve_y [3, P] (sRGB-like curves, per-channel lift)."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lin = torch.rand(3, H, W, generator=g) ** 2.2
    rgb = (lin * 65535.0).round().to(torch.int32)
    rgb[:, 0, 0] = 65535
    rgb[:, 0, 1] = 0
    xs = torch.linspace(0.0, 1.0, P, dtype=torch.float64) ** 2.4
    lift = torch.tensor([0.0, 0.01, 0.02], dtype=torch.float64)[:, None]
    curve_x = xs[None, :].expand(3, P).clone()
    curve_y = lift + (1.0 - lift) * _srgb_oetf(xs)[None, :]
    return rgb.to(torch.uint16).to(device), curve_x.to(dt).to(device), curve_y.to(dt).to(device)


def reference(rgb: torch.Tensor, curve_x: torch.Tensor, curve_y: torch.Tensor) -> torch.Tensor:
    C = rgb.shape[0]
    v = rgb.double().reshape(C, -1) / 65535.0
    x = curve_x.double()
    y = curve_y.double()
    seg = torch.searchsorted(x[:, 1:-1].contiguous(), v.contiguous(), right=True)
    x0, x1 = torch.gather(x, 1, seg), torch.gather(x, 1, seg + 1)
    y0, y1 = torch.gather(y, 1, seg), torch.gather(y, 1, seg + 1)
    out = y0 + (v - x0) * (y1 - y0) / (x1 - x0)
    return out.reshape(rgb.shape).to(curve_y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = 3 * s["H"] * s["W"]
    return {"bytes": 6 * n + 2 * 4 * 3 * P, "flops": 8 * n}
