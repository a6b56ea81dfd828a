"""Exhaustive block-matching motion estimation (x264 --me esa / FFmpeg full_motion_search): 16x16 SAD over a 32x32 window.

For every 16x16 macroblock of the current luma plane, every integer displacement (dx, dy) with
-16 <= dx, dy < 16 is tried against the reference plane, which the encoder keeps padded by 16
pixels on each side (ref[16 + y + dy, 16 + x + dx] is the pixel the candidate at (dx, dy) covers).
The result is the displacement with the smallest sum of absolute differences, the first one in
raster order (dy, then dx) on ties, and that SAD.
"""
import torch

RANGE = 16
MB = 16

META = {
    "name": "esa_motion_search",
    "level": 2,
    "category": "image",
    "dtypes": ["uint8"],
    "tolerance": {"uint8": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"H": 16, "W": 32},
        "ragged": {"H": 32, "W": 48},
        "large": {"H": 1088, "W": 1920},
    },
    "baseline_notes": "One program per macroblock, grid (W/16, H/16): the 1,024 candidates of the window are one "
                      "int32 vector, a loop over the 256 pixels of the block adds |cur - ref| for every candidate "
                      "at once (the current pixel is a scalar load, the reference pixels a gather of the window), "
                      "then tl.min / tl.argmin over the candidates; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cur [H, W] uint8, ref [H + 32, W + 32] uint8 (padded reference): cur is ref moved by a global shift plus noise."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ref = torch.randint(0, 256, (H + 2 * RANGE, W + 2 * RANGE), generator=g, dtype=torch.int32)
    sy, sx = (int(v) for v in torch.randint(-8, 8, (2,), generator=g))
    cur = ref[RANGE + sy:RANGE + sy + H, RANGE + sx:RANGE + sx + W]
    cur = (cur + torch.randint(-3, 4, (H, W), generator=g, dtype=torch.int32)).clamp(0, 255)
    return cur.to(dt).contiguous().to(device), ref.to(dt).to(device)


def reference(cur: torch.Tensor, ref: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    H, W = cur.shape
    nby, nbx = H // MB, W // MB
    c = cur.to(torch.int32)
    r = ref.to(torch.int32)
    sads = []
    for dy in range(-RANGE, RANGE):
        for dx in range(-RANGE, RANGE):
            win = r[RANGE + dy:RANGE + dy + H, RANGE + dx:RANGE + dx + W]
            sads.append((c - win).abs().view(nby, MB, nbx, MB).sum(dim=(1, 3)))
    sads = torch.stack(sads)                      # [1024, nby, nbx], raster order of (dy, dx)
    best = torch.argmin(sads, dim=0)              # first minimum on ties
    sad = torch.gather(sads, 0, best[None]).squeeze(0).to(torch.int32)
    mv = torch.stack([best % (2 * RANGE) - RANGE, best // (2 * RANGE) - RANGE], dim=-1).to(torch.int32)
    return mv, sad


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    mbs = (H // MB) * (W // MB)
    return {"bytes": H * W + (H + 2 * RANGE) * (W + 2 * RANGE) + 12 * mbs,
            "flops": 3 * mbs * (2 * RANGE) ** 2 * MB * MB}
