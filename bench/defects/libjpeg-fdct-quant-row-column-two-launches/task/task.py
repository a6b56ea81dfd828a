"""JPEG forward 8x8 DCT + quantisation of luma planes (libjpeg-turbo jfdctflt.c + jcdctmgr.c quantize).

Every 8x8 block of a plane is level-shifted by -128, transformed with the orthonormal 2-D DCT-II
(F[u, v] = 1/4 C(u) C(v) sum_{y,x} f[y, x] cos((2y+1)u pi/16) cos((2x+1)v pi/16), C(0) = 1/sqrt(2))
and divided by the quantisation table, rounding half away from zero. Coefficients are stored
block by block in natural (row-major u, v) order, as libjpeg's JBLOCK arrays: out[n, by, bx, 8u+v].
The planes are padded to a multiple of 8 (the MCU) by the encoder.
"""
import torch

# ITU-T T.81 Annex K.1 luminance table (quality 50), natural order
ANNEX_K_LUMA = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
                14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
                18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
                49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99]

META = {
    "name": "jpeg_fdct_quant",
    "level": 2,
    "category": "image",
    "dtypes": ["uint8"],
    # fp16 tensor-core operands: a coefficient within 0.5 of a rounding boundary may land on either side
    "tolerance": {"uint8": {"atol": 1.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 2, "H": 16, "W": 24},
        "ragged": {"N": 3, "H": 40, "W": 72},
        "large": {"N": 32, "H": 1080, "W": 1920},
    },
    "baseline_notes": "One program per 8-pixel block row of a plane, looping over 64 blocks at a time: the [64 blocks, "
                      "64 pixels] tile is level-shifted and multiplied (fp16 tl.dot, fp32 accumulate) by the 64x64 "
                      "row-pass operator kron(I, C^T), cast to fp16 and multiplied by the column-pass operator "
                      "kron(C^T, I) in registers, scaled by 1/Q, rounded and stored as int16; 4 warps, no autotune.",
    "deterministic": True,
}


def quality_table(quality: int) -> torch.Tensor:
    """libjpeg jpeg_quality_scaling + jpeg_add_quant_table (force_baseline)."""
    scale = 5000 // quality if quality < 50 else 200 - 2 * quality
    q = (torch.tensor(ANNEX_K_LUMA, dtype=torch.int32) * scale + 50) // 100
    return q.clamp(1, 255)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pixels [N, H, W] uint8 luma planes, qtable [64] int32 (libjpeg quality 75, PIL's default)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    N, H, W = s["N"], s["H"], s["W"]
    base = torch.randint(0, 256, (N, H // 8 + 1, W // 8 + 1), generator=g).float()
    smooth = torch.nn.functional.interpolate(base[:, None], size=(H, W), mode="bilinear", align_corners=False)[:, 0]
    pixels = (smooth + torch.randint(-24, 25, (N, H, W), generator=g)).clamp(0, 255).round()
    return pixels.to(dt).to(device), quality_table(75).to(device)


def dct_matrix(dtype=torch.float64) -> torch.Tensor:
    u = torch.arange(8, dtype=dtype)[:, None]
    x = torch.arange(8, dtype=dtype)[None, :]
    c = torch.cos((2 * x + 1) * u * torch.pi / 16) * 0.5
    c[0] *= 2 ** -0.5
    return c                                       # [u, x]


def reference(pixels: torch.Tensor, qtable: torch.Tensor) -> torch.Tensor:
    N, H, W = pixels.shape
    f = pixels.double() - 128.0
    blocks = f.view(N, H // 8, 8, W // 8, 8).permute(0, 1, 3, 2, 4)        # [n, by, bx, y, x]
    c = dct_matrix().to(pixels.device)
    coef = torch.einsum("uy,nbayx,vx->nbauv", c, blocks, c)
    q = coef / qtable.double().view(8, 8)
    q = torch.sign(q) * torch.floor(q.abs() + 0.5)
    return q.reshape(N, H // 8, W // 8, 64).to(torch.int16)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    px = s["N"] * s["H"] * s["W"]
    return {"bytes": px + 2 * px + 256, "flops": 2 * 2 * 64 * px}
