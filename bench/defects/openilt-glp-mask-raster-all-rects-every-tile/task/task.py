"""Mask rasterisation of glp layout clips (OpenILT / ICCAD-2013 lithosim mask loading).

A clip of the ICCAD-2013 mask-optimisation benchmark (or a LithoBench-style training clip) is a list of
Manhattan polygons in integer nanometres; OpenILT's glp reader decomposes them into rectangles and fills
each one into a binary mask at 1 nm per pixel. Here a batch of B clips is rasterised at once: clip b has
counts[b] rectangles rects[b, r] = (x_lo, y_lo, x_hi, y_hi) in pixels, half-open (x_lo <= x < x_hi,
y_lo <= y < y_hi); rows of rects past counts[b] are padding and must be ignored. The output is the
mask [B, H, W] in fp32 (1.0 where any rectangle covers the pixel, else 0.0), ready for the FFT of the
SOCS aerial-image model.
"""
import torch

META = {
    "name": "glp_mask_raster",
    "level": 2,
    "category": "rasterisation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 0.0}},
    "sizes": {
        "small": {"B": 2, "H": 80, "W": 80, "R": 40},
        "ragged": {"B": 3, "H": 90, "W": 150, "R": 45},
        "large": {"B": 16, "H": 2048, "W": 2048, "R": 384},
    },
    "baseline_notes": "Grid (W/128, H/64, B): each program owns a 64x128 pixel tile of one clip, walks the "
                      "clip's rectangle list with scalar loads, skips rectangles whose box misses the tile and "
                      "ORs the covered span of the others into a boolean tile; one fp32 store. 4 warps, no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """rects int32 [B, R, 4] (padded with empty boxes), counts int32 [B], H, W."""
    s = META["sizes"][size]
    B, H, W, R = s["B"], s["H"], s["W"], s["R"]
    g = torch.Generator().manual_seed(seed)
    ext = min(H, W)
    counts = torch.randint(max(1, (R * 7) // 8), R + 1, (B,), generator=g, dtype=torch.int32)
    kind = torch.randint(0, 3, (B, R), generator=g)                     # 0 horizontal wire, 1 vertical, 2 via
    width = (ext * (0.015 + 0.015 * torch.rand(B, R, generator=g))).clamp(min=1.0)
    length = ext * (0.02 + 0.13 * torch.rand(B, R, generator=g))
    via = (ext * 0.025 * torch.ones(B, R)).clamp(min=1.0)
    w = torch.where(kind == 0, length, torch.where(kind == 1, width, via))
    h = torch.where(kind == 0, width, torch.where(kind == 1, length, via))
    x_lo = torch.rand(B, R, generator=g) * W
    y_lo = torch.rand(B, R, generator=g) * H
    x_hi = (x_lo + w).clamp(max=W)
    y_hi = (y_lo + h).clamp(max=H)
    rects = torch.stack([x_lo, y_lo, x_hi, y_hi], dim=-1).floor().to(torch.int32)
    pad = torch.arange(R)[None, :] >= counts[:, None].long()
    rects[pad] = 0
    return rects.to(device), counts.to(device), H, W


def reference(rects: torch.Tensor, counts: torch.Tensor, H: int, W: int) -> torch.Tensor:
    B, R, _ = rects.shape
    r = rects.long()
    live = (torch.arange(R, device=rects.device)[None, :] < counts[:, None].long()).double()
    xs = torch.arange(W, device=rects.device)
    ys = torch.arange(H, device=rects.device)
    in_x = ((xs[None, None, :] >= r[..., 0:1]) & (xs[None, None, :] < r[..., 2:3])).double()  # [B, R, W]
    in_y = ((ys[None, None, :] >= r[..., 1:2]) & (ys[None, None, :] < r[..., 3:4])).double()  # [B, R, H]
    hits = torch.einsum("brh,brw->bhw", in_y * live[..., None], in_x)
    return (hits > 0).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["B"] * s["H"] * s["W"] + 16 * s["B"] * s["R"], "flops": 0}
