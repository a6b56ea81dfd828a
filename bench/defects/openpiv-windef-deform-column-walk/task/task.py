"""Symmetric image deformation of OpenPIV's window-deformation method (windef.deform_windows called
for both frames of a pass, deformation_method='symmetric').

The predictor field u, v [n_rows, n_cols] (px; u along columns, v along rows, downwards positive)
lives on the interrogation-window centres x_k = y_k = x0 + k * step. For every pixel (y, x):
  * the field is interpolated to the pixel bilinearly on that grid (create_deformation_field with
    a first-order spline), held constant beyond the outermost centres: ut, vt;
  * frame_a is sampled at (y - vt/2, x - ut/2) and frame_b at (y + vt/2, x + ut/2) with first-order
    (bilinear) interpolation and mode='nearest' (coordinates clamped to the image), as
    scipy.ndimage.map_coordinates(frame, coords, order=1, mode='nearest') does.
Returns (frame_a deformed, frame_b deformed), each [H, W] fp32.
"""
import math

import torch

META = {
    "name": "piv_symmetric_deform",
    "level": 2,
    "category": "piv",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 72, "W": 88, "window": 16, "overlap": 8},
        "ragged": {"H": 67, "W": 93, "window": 16, "overlap": 8},
        "large": {"H": 4384, "W": 6576, "window": 64, "overlap": 32},
    },
    "baseline_notes": "Grid (cdiv(W, 1024), H): each program takes 1024 consecutive pixels of one image row, "
                      "interpolates the window-centre field bilinearly, and samples both frames (integer part "
                      "and fraction of the shift kept apart, clamped like mode='nearest'); 4 warps, no autotune.",
    "deterministic": True,
}


def _render(px: torch.Tensor, py: torch.Tensor, amp: torch.Tensor, sig: torch.Tensor, H: int, W: int) -> torch.Tensor:
    """Gaussian particle images (5 x 5 px footprint) summed into an [H, W] fp32 frame."""
    img = torch.zeros(H * W)
    cx, cy = px.floor(), py.floor()
    fx, fy = (px - cx).float(), (py - cy).float()
    cx, cy = cx.long(), cy.long()
    a, k = amp.float(), (-0.5 / sig ** 2).float()
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            xx, yy = cx + dx, cy + dy
            inside = ((xx >= 0) & (xx < W) & (yy >= 0) & (yy < H)).float()
            val = inside * a * torch.exp(((dx - fx) ** 2 + (dy - fy) ** 2) * k)
            img.index_add_(0, yy.clamp(0, H - 1) * W + xx.clamp(0, W - 1), val)
    return img.reshape(H, W)


def _flow(x: torch.Tensor, y: torch.Tensor, H: int, W: int) -> tuple:
    """Uniform stream plus a Lamb-Oseen vortex in the middle of the frame (~6 px peak swirl)."""
    rc = 0.15 * min(H, W)
    xc, yc = 0.45 * W, 0.55 * H
    r2 = (x - xc) ** 2 + (y - yc) ** 2 + 1e-6
    swirl = 9.4 * rc * (1 - torch.exp(-r2 / rc ** 2)) / r2
    return 2.0 - swirl * (y - yc), 0.5 + swirl * (x - xc)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A synthetic particle image pair [H, W] (0.02 particles per pixel), the window-centre predictor
    u, v [n_rows, n_cols], the first centre x0 and the grid step (window - overlap)."""
    s = META["sizes"][size]
    H, W, win, ovl = s["H"], s["W"], s["window"], s["overlap"]
    step = win - ovl
    n_rows, n_cols = (H - win) // step + 1, (W - win) // step + 1
    x0 = win / 2.0
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n_p = max(8, int(0.02 * H * W))
    px = torch.rand(n_p, generator=g, dtype=torch.float64) * W
    py = torch.rand(n_p, generator=g, dtype=torch.float64) * H
    amp = (80 + 140 * torch.rand(n_p, generator=g, dtype=torch.float64))
    sig = 0.7 + 0.3 * torch.rand(n_p, generator=g, dtype=torch.float64)
    du, dv = _flow(px, py, H, W)
    frame_a = _render(px, py, amp, sig, H, W) + 8.0 + 3.0 * torch.rand(H, W, generator=g)
    frame_b = _render(px + du, py + dv, amp, sig, H, W) + 8.0 + 3.0 * torch.rand(H, W, generator=g)
    gy, gx = torch.meshgrid(x0 + step * torch.arange(n_rows, dtype=torch.float64),
                            x0 + step * torch.arange(n_cols, dtype=torch.float64), indexing="ij")
    u, v = _flow(gx, gy, H, W)
    u = u + 0.2 * torch.randn(n_rows, n_cols, generator=g, dtype=torch.float64)
    v = v + 0.2 * torch.randn(n_rows, n_cols, generator=g, dtype=torch.float64)
    cast = dict(device=device, dtype=dt)
    return (frame_a.clamp(0, 255).to(**cast), frame_b.clamp(0, 255).to(**cast), u.to(**cast), v.to(**cast),
            x0, step)


def _bilinear_nearest(img: torch.Tensor, sy: torch.Tensor, sx: torch.Tensor) -> torch.Tensor:
    H, W = img.shape
    cy, cx = sy.clamp(0, H - 1), sx.clamp(0, W - 1)
    y0, x0 = cy.floor().long(), cx.floor().long()
    fy, fx = cy - y0, cx - x0
    y1, x1 = (y0 + 1).clamp(max=H - 1), (x0 + 1).clamp(max=W - 1)
    return ((1 - fy) * ((1 - fx) * img[y0, x0] + fx * img[y0, x1])
            + fy * ((1 - fx) * img[y1, x0] + fx * img[y1, x1]))


def reference(frame_a: torch.Tensor, frame_b: torch.Tensor, u: torch.Tensor, v: torch.Tensor,
              x0: float, step: int) -> tuple:
    H, W = frame_a.shape
    n_rows, n_cols = u.shape
    fa, fb, ud, vd = frame_a.double(), frame_b.double(), u.double(), v.double()
    out_a = torch.empty(H, W, dtype=torch.float64, device=fa.device)
    out_b = torch.empty_like(out_a)
    xs = torch.arange(W, dtype=torch.float64, device=fa.device)
    gx = ((xs - x0) / step).clamp(0, n_cols - 1)
    c0 = gx.floor().long().clamp(max=n_cols - 1)
    c1 = (c0 + 1).clamp(max=n_cols - 1)
    wx = gx - c0
    for r in range(0, H, 512):
        ys = torch.arange(r, min(H, r + 512), dtype=torch.float64, device=fa.device)
        gy = ((ys - x0) / step).clamp(0, n_rows - 1)
        r0 = gy.floor().long().clamp(max=n_rows - 1)
        r1 = (r0 + 1).clamp(max=n_rows - 1)
        wy = (gy - r0)[:, None]

        def field(f):
            top = (1 - wx) * f[r0][:, c0] + wx * f[r0][:, c1]
            bot = (1 - wx) * f[r1][:, c0] + wx * f[r1][:, c1]
            return (1 - wy) * top + wy * bot

        ut, vt = field(ud), field(vd)
        yy, xx = ys[:, None], xs[None, :]
        out_a[r:r + len(ys)] = _bilinear_nearest(fa, yy - 0.5 * vt, xx - 0.5 * ut)
        out_b[r:r + len(ys)] = _bilinear_nearest(fb, yy + 0.5 * vt, xx + 0.5 * ut)
    return out_a.to(frame_a.dtype), out_b.to(frame_b.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 16 * n, "flops": 60 * n}
