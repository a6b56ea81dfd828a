"""HDR+ burst alignment on the finest pyramid layer (hdr-plus align_layer on layer_0).

Every alternate frame of a burst is aligned to the reference frame (frame 0) in 16x16 tiles of
the alignment layer (layer 0 = each raw frame box-downsampled 2x2, 10-bit values), the tiles
overlapping by half (tile origin = 8 * tile index; TX = W // 8 - 1, TY = H // 8 - 1 tiles).
The coarse estimate comes from the layer above (layer 1, downsampled 4x): tile (tx, ty) takes
prev[n, max(ty - 1, 0) // 4, max(tx - 1, 0) // 4], clamped to [-20, 15] per component as in
hdr-plus, times 4. Around it, the 8x8 search window (-4..3 in x and y) is scored with the L1
distance sum |ref - alt| over the tile (alternate-frame coordinates clamped to the image,
repeat-edge), and the tile's offset is the coarse offset plus the argmin (x fastest in the
search order, the first minimum wins on ties).

Returns int32 [N - 1, TY, TX, 2]: (x, y) offset of each tile of each alternate frame, in
layer-0 pixels.
"""
import torch
import torch.nn.functional as F

META = {
    "name": "hdrplus_align_layer0",
    "level": 2,
    "category": "computational_photography",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 3, "H": 24, "W": 32},
        "ragged": {"N": 3, "H": 28, "W": 44},
        "large": {"N": 8, "H": 1512, "W": 2016},
    },
    "baseline_notes": "One program per (tile, alternate frame), 2 warps: the 16x16 reference tile is loaded "
                      "once, the 64 candidate offsets are scored in a loop with the running minimum and its "
                      "index kept in registers, and the offset is stored once. No autotune.",
    "deterministic": True,
}
TILE = 16          # tile size in the alignment layer (T_SIZE_2)
STEP = 8           # tile stride (T_SIZE_2 / 2): tiles overlap by half
SEARCH = 8         # search window -4..3 in x and y
PREV_MIN, PREV_MAX = -20, 15   # hdr-plus min_1 / max_1: clamp of the layer-1 alignment


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Layer-0 stack int16 [N, H, W] (frame 0 = reference) and the layer-1 alignment int32 [N-1, PTY, PTX, 2]."""
    s = META["sizes"][size]
    n, h, w = s["N"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    margin = 40
    ch, cw = h + 2 * margin, w + 2 * margin
    coarse = F.interpolate(torch.rand(1, 1, ch // 24 + 2, cw // 24 + 2, generator=g), size=(ch, cw),
                           mode="bilinear", align_corners=False)
    mid = F.avg_pool2d(torch.rand(1, 1, ch, cw, generator=g), 5, stride=1, padding=2)
    fine = torch.rand(1, 1, ch, cw, generator=g)
    scene = (80 + 620 * coarse + 500 * (mid - 0.5) + 120 * fine)[0, 0]
    shifts = torch.randint(-24, 25, (n, 2), generator=g)
    shifts[0] = 0
    frames = []
    for f in range(n):
        sx, sy = int(shifts[f, 0]), int(shifts[f, 1])
        crop = scene[margin + sy: margin + sy + h, margin + sx: margin + sx + w]
        frames.append(crop + 6.0 * torch.randn(h, w, generator=g))
    layer = torch.stack(frames).round().clamp(0, 1023).to(torch.int16)
    tx_n, ty_n = w // STEP - 1, h // STEP - 1
    ptx, pty = (tx_n - 2) // 4 + 1, (ty_n - 2) // 4 + 1
    # layer-1 estimate of the offset that maps a reference tile onto frame n: about -shift / 4, with local error
    coarse_off = torch.round(-shifts[1:].float() / 4).to(torch.int32)
    # mostly right, off by one layer-1 pixel on some tiles (local motion, weak texture)
    wrong = torch.rand(n - 1, pty, ptx, 2, generator=g) < 0.15
    jitter = torch.where(wrong, torch.randint(-1, 2, (n - 1, pty, ptx, 2), generator=g), 0).to(torch.int32)
    prev = (coarse_off[:, None, None, :] + jitter).clamp(PREV_MIN - 2, PREV_MAX + 2).to(torch.int32)
    return layer.to(device), prev.to(device)


def reference(layer: torch.Tensor, prev: torch.Tensor) -> torch.Tensor:
    n, h, w = layer.shape
    ty_n, tx_n = h // STEP - 1, w // STEP - 1
    dev = layer.device
    lay = layer.long()
    ty = torch.arange(ty_n, device=dev)
    tx = torch.arange(tx_n, device=dev)
    pty = ((ty - 1).clamp(min=0) // 4).clamp(max=prev.shape[1] - 1)
    ptx = ((tx - 1).clamp(min=0) // 4).clamp(max=prev.shape[2] - 1)
    base = prev[:, pty][:, :, ptx].long().clamp(PREV_MIN, PREV_MAX) * 4        # [N-1, TY, TX, 2]
    r = torch.arange(TILE, device=dev)
    ry = (ty[:, None] * STEP + r)[:, None, :, None]                               # [TY, 1, 16, 1]
    rx = (tx[:, None] * STEP + r)[None, :, None, :]                               # [1, TX, 1, 16]
    ref_tiles = lay[0][ry, rx]                                                    # [TY, TX, 16, 16]
    out = torch.empty(n - 1, ty_n, tx_n, 2, dtype=torch.int32, device=dev)
    for f in range(1, n):
        bx = base[f - 1, :, :, 0][:, :, None, None]
        by = base[f - 1, :, :, 1][:, :, None, None]
        scores = []
        for dy in range(-SEARCH // 2, SEARCH // 2):
            for dx in range(-SEARCH // 2, SEARCH // 2):
                ys = (ry + by + dy).clamp(0, h - 1)
                xs = (rx + bx + dx).clamp(0, w - 1)
                scores.append((ref_tiles - lay[f][ys, xs]).abs().sum((-1, -2)))
        best = torch.stack(scores).argmin(0)
        out[f - 1, :, :, 0] = (base[f - 1, :, :, 0] + best % SEARCH - SEARCH // 2).to(torch.int32)
        out[f - 1, :, :, 1] = (base[f - 1, :, :, 1] + best // SEARCH - SEARCH // 2).to(torch.int32)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    tiles = (s["H"] // STEP - 1) * (s["W"] // STEP - 1) * (s["N"] - 1)
    return {"bytes": 2 * s["N"] * s["H"] * s["W"] + 8 * tiles, "flops": 3 * tiles * SEARCH * SEARCH * TILE * TILE}
