"""CDEF direction search of AV1 (dav1d cdef_find_dir / libaom cdef_find_dir_c) over every 8x8 luma block.

For each 8x8 block the pixels are brought to 8 bits and centred, px = (pixel >> (bitdepth - 8)) - 128,
and summed along the lines of 8 candidate directions (partial sums of dav1d's partial_sum_diag/alt/hv):
    d=0: line y + x          (15 lines)     d=4: line 7 + y - x          (15 lines)
    d=1: line y + (x >> 1)   (11 lines)     d=5: line 3 - (y >> 1) + x   (11 lines)
    d=2: line y              ( 8 lines)     d=6: line x                  ( 8 lines)
    d=3: line 3 + y - (x >> 1) (11 lines)   d=7: line (y >> 1) + x       (11 lines)
cost[d] = sum over lines of partial^2 * 840 / (pixels on the line), the integer weights of dav1d's
div_table (840, 420, 280, 210, 168, 140, 120; 105 for full 8-pixel lines). The block's direction is
the first d of largest cost, its variance (best_cost - cost[d ^ 4]) >> 10. All integer arithmetic.
Returns (dir int32 [H/8, W/8], var int32 [H/8, W/8]).
"""
import math

import torch

META = {
    "name": "cdef_find_dir",
    "level": 2,
    "category": "video-postfilter",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"H": 48, "W": 96},
        "ragged": {"H": 40, "W": 88},
        "large": {"H": 2160, "W": 3840},
    },
    "baseline_notes": "Grid (block-column groups of 16 blocks, block rows); each program loads its 16 8x8 "
                      "blocks as a [16, 64] tile, and per direction multiplies the centred pixels by that "
                      "direction's [64, 16] pixel-to-line one-hot matrix with tl.dot (fp16 inputs, exact for "
                      "8-bit values, fp32 accumulate), then weights and squares the partial sums in int32; "
                      "first argmax over the 8 costs. 4 warps, no autotune.",
    "deterministic": True,
}
BITDEPTH = 10


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A 10-bit luma frame [H, W] int16 with oriented texture, flat areas and noise; bitdepth (int)."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    # one orientation and period per 32x32 region, as edges and texture of real content
    ry, rx = (h + 31) // 32, (w + 31) // 32
    theta = (torch.rand(ry, rx, generator=g) * math.pi).repeat_interleave(32, 0).repeat_interleave(32, 1)[:h, :w]
    period = (4.0 + 12.0 * torch.rand(ry, rx, generator=g)).repeat_interleave(32, 0).repeat_interleave(32, 1)[:h, :w]
    amp = (torch.rand(ry, rx, generator=g) * 180.0).repeat_interleave(32, 0).repeat_interleave(32, 1)[:h, :w]
    amp = torch.where(amp < 30.0, torch.zeros_like(amp), amp)  # some flat regions: ties, direction 0
    stripes = amp * torch.sin(2 * math.pi * (xx * torch.cos(theta) + yy * torch.sin(theta)) / period)
    base = 512.0 + 200.0 * torch.sin(xx / 700.0) * torch.cos(yy / 450.0)
    noise = torch.randn(h, w, generator=g) * 6.0 * (amp > 0)
    frame = (base + stripes + noise).round().clamp(0, (1 << BITDEPTH) - 1).to(torch.int16)
    return frame.to(device), BITDEPTH


_LINES = {  # direction -> line index of pixel (y, x)
    0: lambda y, x: y + x,
    1: lambda y, x: y + (x >> 1),
    2: lambda y, x: y + 0 * x,
    3: lambda y, x: 3 + y - (x >> 1),
    4: lambda y, x: 7 + y - x,
    5: lambda y, x: 3 - (y >> 1) + x,
    6: lambda y, x: x + 0 * y,
    7: lambda y, x: (y >> 1) + x,
}


def reference(frame: torch.Tensor, bitdepth: int) -> tuple:
    h, w = frame.shape
    nby, nbx = h // 8, w // 8
    dev = frame.device
    px = ((frame.long() >> (bitdepth - 8)) - 128).reshape(nby, 8, nbx, 8).permute(0, 2, 1, 3).reshape(-1, 64)
    y = torch.arange(8, device=dev).repeat_interleave(8)
    x = torch.arange(8, device=dev).repeat(8)
    costs = []
    for d in range(8):
        line = _LINES[d](y, x)
        part = torch.zeros(px.shape[0], 16, dtype=torch.long, device=dev)
        part.scatter_add_(1, line[None, :].expand(px.shape[0], 64), px)
        count = torch.bincount(line, minlength=16)
        weight = torch.where(count > 0, 840 // count.clamp(min=1), torch.zeros_like(count))
        costs.append((part * part * weight[None, :]).sum(1))
    cost = torch.stack(costs, 1)
    best_dir = cost.argmax(1)
    best = cost.gather(1, best_dir[:, None])[:, 0]
    opp = cost.gather(1, (best_dir ^ 4)[:, None])[:, 0]
    var = (best - opp) >> 10
    return best_dir.to(torch.int32).reshape(nby, nbx), var.to(torch.int32).reshape(nby, nbx)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 2 * n + 8 * (n // 64), "flops": 2 * 8 * 16 * n}
