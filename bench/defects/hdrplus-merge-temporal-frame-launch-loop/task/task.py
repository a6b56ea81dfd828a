"""HDR+ burst merge of a raw Bayer burst (hdr-plus merge_temporal + merge_spatial).

The raw frames are merged in 32x32 tiles that overlap by half (tile origin = 16 * tile index;
TX = W // 16 - 1, TY = H // 16 - 1). For tile t and alternate frame n the alignment stage gives
an even (CFA-preserving) raw offset off[n, t] and the tile's mean L1 distance dist[n, t]; as in
hdr-plus

    norm = max(1, dist / 8 - 10 / 8),  w[n, t] = 0 if norm > 290 else 1 / norm,
    temporal(t, p) = (ref(p) + sum_n w[n, t] * alt_n(p + off[n, t])) / (1 + sum_n w[n, t]),

with alternate-frame coordinates mirrored at the image border (mirror_interior). Each pixel p
lies in four tiles (the upper/left one at inner index p % 16 + 16, the lower/right one at p % 16;
tile indices clamped to the tile grid) that are blended with the raised-cosine window
c(v) = 1/2 - 1/2 cos(2 pi (v + 1/2) / 32): out(p) = sum_tiles c(ix) c(iy) temporal(t, p).
Returns the merged raw frame, float32 [H, W] (raw units, not rounded).
"""
import torch
import torch.nn.functional as F

META = {
    "name": "hdrplus_merge",
    "level": 2,
    "category": "computational_photography",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 3, "H": 64, "W": 96},
        "ragged": {"N": 3, "H": 74, "W": 106},
        "large": {"N": 8, "H": 3024, "W": 4032},
    },
    "baseline_notes": "One program per 16x16 cell (the pixels shared by the same four tiles), 2 warps: the four "
                      "tiles' weights and offsets are scalars, the reference cell is loaded once and every "
                      "alternate frame's four shifted cells are accumulated in registers; one store per pixel. "
                      "No autotune.",
    "deterministic": True,
}
TILE = 32
STEP = 16
PI = 3.141592      # hdr-plus's constant


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Raw burst int16 [N, H, W] (frame 0 = reference), offsets int32 [N-1, TY, TX, 2], distances int32 [N-1, TY, TX]."""
    s = META["sizes"][size]
    n, h, w = s["N"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    margin = 64
    ch, cw = h + 2 * margin, w + 2 * margin
    coarse = F.interpolate(torch.rand(1, 1, ch // 48 + 2, cw // 48 + 2, generator=g), size=(ch, cw),
                           mode="bilinear", align_corners=False)
    mid = F.avg_pool2d(torch.rand(1, 1, ch, cw, generator=g), 5, stride=1, padding=2)
    scene = (60 + 700 * coarse + 300 * (mid - 0.5))[0, 0]
    # RGGB colour filter: scale the four sites differently
    cfa = torch.tensor([[0.55, 1.0], [1.0, 0.45]]).repeat(ch // 2 + 1, cw // 2 + 1)[:ch, :cw]
    scene = scene * cfa
    shifts = 2 * torch.randint(-20, 21, (n, 2), generator=g)
    shifts[0] = 0
    frames = []
    for f in range(n):
        sx, sy = int(shifts[f, 0]), int(shifts[f, 1])
        crop = scene[margin + sy: margin + sy + h, margin + sx: margin + sx + w]
        frames.append(crop + (2.0 + 0.08 * crop.clamp(min=0)).sqrt() * torch.randn(h, w, generator=g))
    raw = torch.stack(frames).round().clamp(0, 1023).to(torch.int16)
    tx_n, ty_n = w // STEP - 1, h // STEP - 1
    # aligned offsets (-shift, even), a few tiles misaligned by 2 raw pixels
    off = (-shifts[1:, None, None, :]).expand(n - 1, ty_n, tx_n, 2).clone()
    off += 2 * torch.randint(-1, 2, off.shape, generator=g) * (torch.rand(off.shape, generator=g) < 0.1)
    # L1 tile distances: noise floor for aligned tiles, large for moving content
    dist = torch.randint(6, 40, (n - 1, ty_n, tx_n), generator=g)
    moving = torch.rand(n - 1, ty_n, tx_n, generator=g) < 0.08
    dist = torch.where(moving, torch.randint(150, 900, dist.shape, generator=g), dist)
    return (raw.to(device), off.to(torch.int32).to(device), dist.to(torch.int32).to(device))


def _mirror(v: torch.Tensor, size: int) -> torch.Tensor:
    v = torch.where(v < 0, -v, v)
    return torch.where(v > size - 1, 2 * (size - 1) - v, v)


def reference(raw: torch.Tensor, off: torch.Tensor, dist: torch.Tensor) -> torch.Tensor:
    n, h, w = raw.shape
    ty_n, tx_n = off.shape[1], off.shape[2]
    dev = raw.device
    frames = raw.double()
    norm = torch.clamp(dist.double() / 8.0 - 10.0 / 8.0, min=1.0)
    wgt = torch.where(norm > 290.0, torch.zeros_like(norm), 1.0 / norm)          # [N-1, TY, TX]
    total = 1.0 + wgt.sum(0)                                                      # [TY, TX]
    y = torch.arange(h, device=dev)
    x = torch.arange(w, device=dev)

    def window(v):
        return 0.5 - 0.5 * torch.cos(2 * PI * (v.double() + 0.5) / TILE)

    out = torch.zeros(h, w, dtype=torch.float64, device=dev)
    for ty, iy in ((y // STEP - 1, y % STEP + STEP), (y // STEP, y % STEP)):
        for tx, ix in ((x // STEP - 1, x % STEP + STEP), (x // STEP, x % STEP)):
            tyc = ty.clamp(0, ty_n - 1)[:, None]
            txc = tx.clamp(0, tx_n - 1)[None, :]
            acc = frames[0].clone()
            for f in range(1, n):
                ys = _mirror(y[:, None] + off[f - 1, :, :, 1][tyc, txc], h)
                xs = _mirror(x[None, :] + off[f - 1, :, :, 0][tyc, txc], w)
                acc += wgt[f - 1][tyc, txc] * frames[f][ys, xs]
            out += window(iy)[:, None] * window(ix)[None, :] * acc / total[tyc, txc]
    return out.float()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["H"] * s["W"]
    return {"bytes": 2 * s["N"] * px + 4 * px, "flops": 4 * 2 * s["N"] * px}
