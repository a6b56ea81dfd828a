"""JPEG decode of one component: dequantise every 8x8 block, 2-D IDCT, level shift, range limit
(libjpeg-turbo decompress_onepass -> inverse_DCT, jpeg_idct_float in jidctflt.c).

Each block of quantised coefficients (int16, natural order v*8+u, as the entropy decoder leaves a
JBLOCK) is dequantised with the component's quantisation table and transformed
    f(y, x) = sum_v sum_u A[v, y] * A[u, x] * coef[v, u] * qtab[v, u],   A[u, x] = c(u)/2 cos((2x+1)u pi/16)
(c(0) = 1/sqrt(2), else 1), then written into the component's sample plane as
clamp(floor(f + 128 + 0.5), 0, 255) (jidctflt adds CENTERJSAMPLE + 0.5 before the range limit).
Blocks are in raster order of the block grid (blocks_high x blocks_wide); block (by, bx) fills plane
rows 8*by..8*by+7, columns 8*bx..8*bx+7. Returns the plane, uint8 [8*blocks_high, 8*blocks_wide].
Float IDCT implementations legitimately differ by one level (jidctflt's own note), hence atol = 1.
"""
import math

import torch

META = {
    "name": "jpeg_idct_float",
    "level": 2,
    "category": "image-codec",
    "dtypes": ["int16"],
    "tolerance": {"int16": {"atol": 1, "rtol": 0}},
    "sizes": {
        "small": {"BH": 2, "BW": 3, "quality": 85},
        "ragged": {"BH": 3, "BW": 5, "quality": 60},
        # the luma plane of a 3840x2160 JPEG (a 4K camera still / MJPEG frame): 270 x 480 blocks
        "large": {"BH": 270, "BW": 480, "quality": 85},
    },
    "baseline_notes": "Grid (groups of 64 blocks along a block row, block rows); each program loads its "
                      "64 coefficient blocks as a [64, 64] tile and multiplies it on the tensor cores by the "
                      "64x64 2-D IDCT basis (kron(A, A), cached on the host) with the quantisation table "
                      "folded into its rows; round, clamp and store 8-byte block rows into the plane. "
                      "4 warps, no autotune.",
    "deterministic": True,
}

# ITU-T T.81 Annex K.1 luminance quantisation table, natural order
STD_LUMA_QTABLE = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
]


def idct_matrix() -> torch.Tensor:
    """A[u, x] = c(u)/2 * cos((2x+1) u pi / 16), float64 [8, 8] (orthonormal: A @ A.T = I)."""
    a = torch.zeros(8, 8, dtype=torch.float64)
    for u in range(8):
        for x in range(8):
            a[u, x] = (math.sqrt(0.5) if u == 0 else 1.0) / 2.0 * math.cos((2 * x + 1) * u * math.pi / 16)
    return a


def quality_table(quality: int) -> torch.Tensor:
    """libjpeg jpeg_quality_scaling + jpeg_add_quant_table (force_baseline): int32 [64]."""
    scale = 5000 // quality if quality < 50 else 200 - quality * 2
    return torch.tensor([min(max((q * scale + 50) // 100, 1), 255) for q in STD_LUMA_QTABLE], dtype=torch.int32)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coef int16 [BH*BW, 64] (quantised, natural order), qtab int32 [64], blocks_high, blocks_wide."""
    s = META["sizes"][size]
    bh, bw = s["BH"], s["BW"]
    h, w = 8 * bh, 8 * bw
    g = torch.Generator().manual_seed(seed)
    yy = torch.arange(h, dtype=torch.float64)[:, None]
    xx = torch.arange(w, dtype=torch.float64)[None, :]
    img = (120 + 50 * torch.sin(xx / 29.0 + seed) * torch.cos(yy / 41.0) + 30 * torch.sin((xx + 2 * yy) / 7.0)
           + 0.02 * (xx - yy))
    img = img + 40.0 * ((xx // 53 + yy // 37) % 2)                    # hard edges
    img = img + torch.randn(h, w, generator=g, dtype=torch.float64) * 6.0   # texture / sensor noise
    img = img.round().clamp(0, 255) - 128.0
    a = idct_matrix()
    blocks = img.view(bh, 8, bw, 8).permute(0, 2, 1, 3)                 # [BH, BW, 8(y), 8(x)]
    fdct = a @ blocks @ a.T                                              # F[v, u] = sum A[v,y] p[y,x] A[u,x]
    qtab = quality_table(s["quality"])
    coef = torch.round(fdct / qtab.view(8, 8).double()).to(torch.int16).reshape(bh * bw, 64)
    return coef.to(device), qtab.to(device), bh, bw


def reference(coef: torch.Tensor, qtab: torch.Tensor, blocks_high: int, blocks_wide: int) -> torch.Tensor:
    a = idct_matrix().to(coef.device)
    f = (coef.double() * qtab.double()).view(blocks_high, blocks_wide, 8, 8)
    pix = a.T @ f @ a                                                    # [BH, BW, 8(y), 8(x)]
    pix = torch.floor(pix + 128.5).clamp(0, 255).to(torch.uint8)
    return pix.permute(0, 2, 1, 3).reshape(8 * blocks_high, 8 * blocks_wide).contiguous()


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = 64 * s["BH"] * s["BW"]
    return {"bytes": 3 * n, "flops": 2 * 16 * n}
