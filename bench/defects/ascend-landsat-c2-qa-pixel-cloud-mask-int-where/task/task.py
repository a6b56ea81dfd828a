"""Landsat 8/9 Collection 2 Level-2 surface reflectance with the QA_PIXEL cloud and shadow mask applied.

The seven SR bands (uint16 DN) are scaled to reflectance, rho = DN * 2.75e-5 - 0.2, and every pixel whose
QA_PIXEL word has any of bits 0-4 set (fill, dilated cloud, cirrus, cloud, cloud shadow) is set to 0 (no data)
in all bands.
"""
import torch

META = {
    "name": "landsat_c2_sr_qa_mask",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 7, "H": 41, "W": 59},
        "ragged": {"B": 7, "H": 67, "W": 131},
        "large": {"B": 7, "H": 7791, "W": 7681},
    },
    "baseline_notes": "Grid of 40 programs (the vector cores), each walking 4096-pixel tiles with a stride of the grid: "
                      "loads the tile's QA_PIXEL words once, keeps bits 0-4 and compares them with 0 in fp32, then "
                      "for each of the 7 bands loads the uint16 DN, scales to reflectance, selects 0 where the pixel "
                      "is rejected and stores fp32; no autotune.",
    "deterministic": True,
}

QA_REJECT_BITS = 0b11111          # fill | dilated cloud | cirrus | cloud | cloud shadow
SR_SCALE, SR_OFFSET = 2.75e-5, -0.2


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """sr [B, H, W] uint16, qa [H, W] uint16 (Collection 2 QA_PIXEL words)."""
    s = META["sizes"][size]
    B, H, W = s["B"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    sr = torch.randint(7273, 43636, (B, H, W), generator=g, dtype=torch.int32)  # reflectance -0.0 .. 1.0
    # clear land with low cloud / cirrus confidence (21824), water flag on a quarter of the pixels
    qa = torch.full((H, W), 21824, dtype=torch.int32)
    qa |= (torch.rand(H, W, generator=g) < 0.25).int() << 7
    cloud = torch.rand(H, W, generator=g) < 0.2
    qa = torch.where(cloud, (qa & ~(1 << 6)) | (1 << 3) | (1 << 1) | (3 << 8), qa)
    qa |= (torch.rand(H, W, generator=g) < 0.05).int() << 4
    qa |= (torch.rand(H, W, generator=g) < 0.03).int() << 2 | (torch.rand(H, W, generator=g) < 0.03).int() << 15
    qa[:, : max(1, W // 40)] = 1                                   # fill collar outside the swath
    sr[:, qa == 1] = 0
    return sr.to(torch.uint16).to(device), qa.to(torch.uint16).to(device)


def reference(sr, qa):
    refl = sr.to(torch.float64) * SR_SCALE + SR_OFFSET
    clear = (qa.to(torch.int32) & QA_REJECT_BITS) == 0
    return torch.where(clear[None], refl, torch.zeros_like(refl)).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 2 * n + 6 * s["B"] * n, "flops": 3 * s["B"] * n}
