"""Trilinear x2 upsampling of a 3-D feature volume (MONAI SegResNet decoder UpSample, nontrainable,
align_corners=False), [B, C, D, H, W] -> [B, C, 2D, 2H, 2W].

Each output coordinate o maps to the source coordinate max((o + 0.5) / 2 - 0.5, 0) on its axis; the
output is the trilinear blend of the 8 surrounding input voxels (indices clamped at the far edge),
exactly torch.nn.functional.interpolate(x, scale_factor=2, mode="trilinear", align_corners=False).
"""
import torch

META = {
    "name": "segresnet_trilinear_upsample_x2",
    "level": 2,
    "category": "layout",
    "dtypes": ["float16", "float32"],
    "tolerance": {"float16": {"atol": 4e-3, "rtol": 4e-3}, "float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 1, "C": 2, "D": 3, "H": 4, "W": 8},
        "ragged": {"B": 2, "C": 3, "D": 5, "H": 7, "W": 13},
        "large": {"B": 1, "C": 16, "D": 72, "H": 112, "W": 112},
    },
    "baseline_notes": "Programs = vector cores (40), each loops over work items (b*c, output slice, block of "
                      "input rows): the slice's two source planes are blended with scalar weights, the rows "
                      "and columns with weights 0.25/0.75 from contiguous shifted row loads, and even/odd "
                      "outputs are interleaved in registers and stored as whole contiguous output rows.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [B, C, D, H, W]: decoder features after the 1x1x1 channel-reducing convolution."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["C"], s["D"], s["H"], s["W"], generator=g)
    return (x.to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    y = torch.nn.functional.interpolate(x.double(), scale_factor=2, mode="trilinear", align_corners=False)
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_in = s["B"] * s["C"] * s["D"] * s["H"] * s["W"]
    es = torch.empty(0, dtype=getattr(torch, dtype or META["dtypes"][0])).element_size()
    return {"bytes": 9 * n_in * es, "flops": 8 * 14 * n_in}
