"""Bilinear upsampling (F.interpolate(mode='bilinear', align_corners=False)) of an NCHW feature map by 4: each output
pixel blends the four source pixels around (scale * (o + 0.5) - 0.5), clamped at 0 and at the last row / column."""
import torch

META = {
    "name": "upsample_bilinear2d",
    "level": 1,
    "category": "gather",
    "dtypes": ["bfloat16"],
    "tolerance": {"bfloat16": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 1, "C": 3, "H": 5, "W": 7},
        "ragged": {"N": 2, "C": 5, "H": 9, "W": 13},
        "large": {"N": 4, "C": 512, "H": 32, "W": 64},
    },
    "baseline_notes": "48 programs (one per A2 vector core), each looping over [8, OW] blocks of output rows "
                      "strided by the program count: per block the row / column source indices and weights, four "
                      "gathered [8, OW] tiles from the two source rows, fp32 blend, bf16 store.",
    "deterministic": True,
}

SCALE = 4


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, C, H, W]: the stride-16 ASPP output of a DeepLabV3+ head; the decoder resizes it to stride 4."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g)
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    y = torch.nn.functional.interpolate(x.float(), scale_factor=SCALE, mode="bilinear", align_corners=False)
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    item = getattr(torch, dtype or META["dtypes"][0]).itemsize
    n_in = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": item * n_in * (1 + SCALE * SCALE), "flops": 8 * n_in * SCALE * SCALE}
