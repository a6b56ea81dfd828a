"""libcamera software-ISP frame statistics (SwStatsCpu, 10-bit unpacked BGGR Bayer).

The statistics the simple pipeline's IPA (AGC / AWB) reads every frame. As in SwStatsCpu::statsBGGR10Line0
with processBayerFrame2's line skipping: only the 2x2 Bayer blocks at rows y = 0, 4, 8, ... (ySkipMask 0x02
skips every 3rd and 4th line) and columns x = 0, 4, 8, ... (every other block) are sampled; a block at (y, x)
holds b = raw[y, x], g = raw[y, x + 1], g2 = raw[y + 1, x], r = raw[y + 1, x + 1]. Per sampled block
    g   = (g + g2) // 2
    Y   = 77 r + 150 g + 29 b                   (BT.601 weights * 256)
    bin = Y * 64 // (256 * 256 * 4)             (10-bit -> 8-bit, 64-bin histogram)
and sumR += r, sumG += g, sumB += b. The window is the whole frame, height and width rounded down to the
2x2 pattern. Returns (sums int64 [3] = (sumR, sumG, sumB), yHistogram int32 [64]).
"""
import torch

META = {
    "name": "swisp_bayer_stats",
    "level": 2,
    "category": "histogram",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"H": 24, "W": 40},
        "ragged": {"H": 30, "W": 54},
        "large": {"H": 2416, "W": 3856},
    },
    "baseline_notes": "Grid (column blocks of 256 sampled 2x2 blocks, groups of 4 sampled line pairs); each program "
                      "loads b, g, g2, r with four stride-4 loads per line pair, keeps int32 channel sums and a "
                      "64-bin tl.histogram in registers across its 4 line pairs, then adds them with 3 int64 scalar "
                      "atomics and one 64-lane int32 vector atomic. 4 warps, no autotune.",
    "deterministic": True,
}
BLACK = 64       # 10-bit black level
N_BINS = 64      # SwIspStats::kYHistogramSize


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A 10-bit BGGR raw frame ([H, W], values 0..1023, int16: the same bits as libcamera's uint16 samples):
    a lit scene with vignetting, a clipped
    highlight, per-channel colour response and shot/read noise."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    yy = torch.linspace(-1.0, 1.0, h)[:, None]
    xx = torch.linspace(-1.0, 1.0, w)[None, :]
    scene = 0.30 + 0.22 * torch.sin(5.0 * xx + 2.0 * yy) * torch.cos(3.0 * yy - xx) + 0.18 * (yy < -0.35)
    scene = scene + 0.9 * torch.exp(-((xx - 0.45) ** 2 + (yy + 0.5) ** 2) / 0.02)          # a lamp: clips
    scene = scene * (1.0 - 0.35 * (xx * xx + yy * yy))                                      # lens shading
    row_even = (torch.arange(h) % 2 == 0)[:, None]
    col_even = (torch.arange(w) % 2 == 0)[None, :]
    gain = torch.where(row_even & col_even, 0.62, torch.where(~row_even & ~col_even, 0.48, 1.0))  # B, R, G
    signal = scene * gain * (1023 - BLACK)
    noise = torch.randn(h, w, generator=g) * (signal.clamp(min=0.0) * 0.6 + 4.0).sqrt()
    raw = (BLACK + signal + noise).round().clamp(0, 1023)
    return (raw.to(torch.int32).to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(raw: torch.Tensor) -> tuple:
    h, w = raw.shape[0] & ~1, raw.shape[1] & ~1
    v = raw.to(torch.int64)
    ys = torch.arange(0, h, 4, device=raw.device)
    xs = torch.arange(0, w, 4, device=raw.device)
    b = v[ys][:, xs]
    g1 = v[ys][:, xs + 1]
    g2 = v[ys + 1][:, xs]
    r = v[ys + 1][:, xs + 1]
    gm = (g1 + g2) // 2
    bins = (77 * r + 150 * gm + 29 * b) * N_BINS // (256 * 256 * 4)
    hist = torch.bincount(bins.reshape(-1), minlength=N_BINS).to(torch.int32)
    sums = torch.stack([r.sum(), gm.sum(), b.sum()])
    return sums, hist


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    blocks = ((s["H"] + 3) // 4) * ((s["W"] + 3) // 4)
    return {"bytes": s["H"] * s["W"], "flops": 12 * blocks}
