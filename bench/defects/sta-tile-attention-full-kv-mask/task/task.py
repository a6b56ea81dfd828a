"""Sliding tile attention (STA, FastVideo) for HunyuanVideo's 3-D full attention: the video tokens are
laid out tile-major (each tile of TT x TH x TW latent positions is contiguous) and every query tile
attends only to the WT x WH x WW tiles of a window around it, clamped to stay inside the video."""
import math

import torch

META = {
    "name": "sta_sliding_tile_attention",
    "level": 2,
    "category": "attention",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 2e-2, "rtol": 2e-2}},
    "sizes": {
        "small": {"B": 1, "H": 2, "D": 32, "tiles": (4, 3, 2), "tile": (2, 2, 4), "window": (3, 3, 1)},
        "ragged": {"B": 1, "H": 3, "D": 64, "tiles": (3, 5, 3), "tile": (2, 4, 4), "window": (3, 3, 3)},
        "large": {"B": 1, "H": 24, "D": 128, "tiles": (5, 6, 10), "tile": (6, 8, 8), "window": (3, 3, 3)},
    },
    "baseline_notes": "FlashAttention-style forward, grid (query blocks of 128, batch*heads); each program "
                      "enumerates only the WT*WH*WW key tiles of its query tile's clamped window and walks them "
                      "in 64-key blocks with an online softmax (exp2, fp32 accumulator); 8 warps.",
    "deterministic": True,
}


def window_tiles(tiles: tuple, window: tuple) -> torch.Tensor:
    """[num_tiles, WT*WH*WW] key tile ids of each query tile's window (window start clamped into the grid)."""
    nt, nh, nw = tiles
    wt, wh, ww = window
    tid = torch.arange(nt * nh * nw)
    ct, ch, cw = tid // (nh * nw), (tid // nw) % nh, tid % nw
    st = (ct - wt // 2).clamp(0, nt - wt)
    sh = (ch - wh // 2).clamp(0, nh - wh)
    sw = (cw - ww // 2).clamp(0, nw - ww)
    dt, dh, dw = torch.meshgrid(torch.arange(wt), torch.arange(wh), torch.arange(ww), indexing="ij")
    return ((st[:, None] + dt.flatten()) * nh + sh[:, None] + dh.flatten()) * nw + sw[:, None] + dw.flatten()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """q, k, v [B, H, N, D] in tile-major token order (N = num tiles * tile volume), and the geometry:
    tile grid (NT, NH, NW), tile shape (TT, TH, TW), window in tiles (WT, WH, WW)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n = math.prod(s["tiles"]) * math.prod(s["tile"])
    shape = (s["B"], s["H"], n, s["D"])
    q, k, v = (torch.randn(shape, generator=g).to(device=device, dtype=dt) for _ in range(3))
    return q, k, v, tuple(s["tiles"]), tuple(s["tile"]), tuple(s["window"])


def reference(q, k, v, tiles, tile, window) -> torch.Tensor:
    vol = math.prod(tile)
    kv_tiles = window_tiles(tiles, window).to(q.device)
    within = torch.arange(vol, device=q.device)
    scale = q.shape[-1] ** -0.5
    out = torch.empty_like(q)
    for i in range(kv_tiles.shape[0]):
        qi = q[:, :, i * vol:(i + 1) * vol].float()
        tok = (kv_tiles[i][:, None] * vol + within).flatten()
        ki, vi = k[:, :, tok].float(), v[:, :, tok].float()
        p = torch.softmax(qi @ ki.transpose(-1, -2) * scale, dim=-1)
        out[:, :, i * vol:(i + 1) * vol] = (p @ vi).to(q.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n = math.prod(s["tiles"]) * math.prod(s["tile"])
    keys = math.prod(s["window"]) * math.prod(s["tile"])
    bh = s["B"] * s["H"]
    return {"bytes": 4 * bh * n * s["D"] * item, "flops": 4 * bh * n * keys * s["D"] + 5 * bh * n * keys}
