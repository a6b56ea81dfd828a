"""libcamera software-ISP debayer (DebayerCpu, 10-bit unpacked BGGR -> 24-bit RGB888).

Bilinear demosaic with the per-channel lookup tables the software ISP folds black level, AWB gains and gamma
into (DebayerCpu::process builds red_, green_, blue_ [256] uint8 from gamma_ [1024] and the gains). The output
window is the input minus a 2-pixel pattern border left and right (DebayerCpu::sizes; window x = 2, y = 0), so
output pixel (y, j) sits at input column c = j + 2; above row 0 and below row H - 1 the neighbouring row is
mirrored (prev = row 1 at the top, next = prev at the bottom, as process2 does). Per input site (10-bit,
so the macros' div = 4):
    B site (even row, even c): B = blue[cur[c] / 4], G = green[(up[c] + cur[c-1] + cur[c+1] + dn[c]) / 16],
                               R = red[(up[c-1] + up[c+1] + dn[c-1] + dn[c+1]) / 16]
    G site on a B row (even row, odd c): B = blue[(cur[c-1] + cur[c+1]) / 8], G = green[cur[c] / 4],
                               R = red[(up[c] + dn[c]) / 8]
    G site on an R row (odd row, even c): B = blue[(up[c] + dn[c]) / 8], G = green[cur[c] / 4],
                               R = red[(cur[c-1] + cur[c+1]) / 8]
    R site (odd row, odd c): B = blue[diagonal sum / 16], G = green[cross sum / 16], R = red[cur[c] / 4]
(integer division). Bytes are written per pixel in the order the debayer functions write them: B, G, R.
Inputs: raw [H, W] int16 (10-bit samples, the bits of libcamera's uint16), luts [3, 256] uint8 (rows red_,
green_, blue_). Returns [H, W - 4, 3] uint8.
"""
import torch

META = {
    "name": "swisp_debayer_rgb888",
    "level": 2,
    "category": "image",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"H": 8, "W": 36},
        "ragged": {"H": 10, "W": 58},
        "large": {"H": 2416, "W": 3856},
    },
    "baseline_notes": "One launch, grid (column blocks of 512 output pixels, rows): each program loads the three "
                      "input rows around its row at c-1, c, c+1, picks the site's sums with the column parity "
                      "(row parity is per program), looks the three channels up in the 256-entry LUTs and stores "
                      "B, G, R bytes; 4 warps, no autotune.",
    "deterministic": True,
}
BLACK_LEVEL_8BIT = 16            # 64 in 10-bit units, as the IPA reports it to DebayerParams
GAMMA = 0.5                      # the software ISP's default gamma correction
GAINS = (1.92, 1.0, 1.56)        # AWB gains R, G, B (DebayerParams uses 256 = 1.0)


def build_luts(gain_r: float = GAINS[0], gain_g: float = GAINS[1], gain_b: float = GAINS[2]) -> torch.Tensor:
    """red_, green_, blue_ as DebayerCpu::process computes them (kGammaLookupSize 1024, kRGBLookupSize 256)."""
    gamma_size, rgb_size, gain10 = 1024, 256, 256
    black_index = BLACK_LEVEL_8BIT * gamma_size // 256
    divisor = gamma_size - black_index - 1.0
    i = torch.arange(gamma_size, dtype=torch.float32)
    gamma = torch.where(i < black_index, torch.zeros(()),
                        (255.0 * ((i - black_index).clamp(min=0) / divisor) ** GAMMA).floor())
    div = rgb_size * gain10 // gamma_size
    idx = torch.arange(rgb_size, dtype=torch.int64)
    luts = []
    for gain in (gain_r, gain_g, gain_b):
        g = int(round(gain * gain10))
        luts.append(gamma[torch.clamp(idx * g // div, max=gamma_size - 1)])
    return torch.stack(luts).to(torch.uint8)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A 10-bit BGGR raw frame of a lit scene (vignetting, a clipped lamp, colour response, noise) and the LUTs."""
    s = META["sizes"][size]
    h, w = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    yy = torch.linspace(-1.0, 1.0, h)[:, None]
    xx = torch.linspace(-1.0, 1.0, w)[None, :]
    scene = 0.30 + 0.22 * torch.sin(9.0 * xx + 2.0 * yy) * torch.cos(5.0 * yy - xx) + 0.18 * (yy < -0.35)
    scene = scene + 0.9 * torch.exp(-((xx - 0.45) ** 2 + (yy + 0.5) ** 2) / 0.02)
    scene = scene * (1.0 - 0.35 * (xx * xx + yy * yy))
    row_even = (torch.arange(h) % 2 == 0)[:, None]
    col_even = (torch.arange(w) % 2 == 0)[None, :]
    gain = torch.where(row_even & col_even, 0.62, torch.where(~row_even & ~col_even, 0.48, 1.0))  # B, R, G
    signal = scene * gain * (1023 - 4 * BLACK_LEVEL_8BIT)
    noise = torch.randn(h, w, generator=g) * (signal.clamp(min=0.0) * 0.6 + 4.0).sqrt()
    raw = (4 * BLACK_LEVEL_8BIT + signal + noise).round().clamp(0, 1023).to(torch.int32)
    return raw.to(getattr(torch, dtype or META["dtypes"][0])).to(device), build_luts().to(device)


def reference(raw: torch.Tensor, luts: torch.Tensor) -> torch.Tensor:
    h, w = raw.shape
    v = raw.to(torch.int64)
    rows = torch.arange(h, device=raw.device)
    up = v[torch.where(rows == 0, 1, rows - 1)]
    dn = v[torch.where(rows == h - 1, h - 2, rows + 1)]
    c = torch.arange(2, w - 2, device=raw.device)
    cur_c, cur_l, cur_r = v[:, c], v[:, c - 1], v[:, c + 1]
    vert = up[:, c] + dn[:, c]
    horiz = cur_l + cur_r
    cross = (vert + horiz) // 16
    diag = (up[:, c - 1] + up[:, c + 1] + dn[:, c - 1] + dn[:, c + 1]) // 16
    centre = cur_c // 4
    even_row = (rows % 2 == 0)[:, None]
    even_col = (c % 2 == 0)[None, :]
    b_idx = torch.where(even_row, torch.where(even_col, centre, horiz // 8), torch.where(even_col, vert // 8, diag))
    g_idx = torch.where(even_row == even_col, cross, centre)
    r_idx = torch.where(even_row, torch.where(even_col, diag, vert // 8), torch.where(even_col, horiz // 8, centre))
    lut = luts.to(torch.int64)
    out = torch.stack([lut[2][b_idx], lut[1][g_idx], lut[0][r_idx]], dim=-1)
    return out.to(torch.uint8)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 2 * s["H"] * s["W"] + 3 * s["H"] * (s["W"] - 4), "flops": 10 * s["H"] * (s["W"] - 4)}
