"""Bilinear resize of video frames (F.interpolate(mode="bilinear", align_corners=False, antialias=False)), NCHW fp16."""
import torch
import torch.nn.functional as F

META = {
    "name": "bilinear_resize_frames",
    "level": 1,
    "category": "vision",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 2e-3, "rtol": 2e-3}},
    "sizes": {
        "small": {"N": 2, "C": 3, "H": 20, "W": 24, "OH": 31, "OW": 45},
        "ragged": {"N": 1, "C": 3, "H": 17, "W": 29, "OH": 26, "OW": 43},
        "large": {"N": 16, "C": 3, "H": 720, "W": 1280, "OH": 1080, "OW": 1920},
    },
    "baseline_notes": "3-D grid (plane, output row, block of 512 output columns): the row's source rows and weight are "
                      "scalars, lanes walk the contiguous output/input width; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """frames [N, C, H, W] in [0, 1] and the output size (OH, OW)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.rand(s["N"], s["C"], s["H"], s["W"], generator=g)
    return x.to(dt).to(device), s["OH"], s["OW"]


def reference(x: torch.Tensor, out_h: int, out_w: int) -> torch.Tensor:
    y = F.interpolate(x.double(), size=(out_h, out_w), mode="bilinear", align_corners=False, antialias=False)
    return y.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    planes = s["N"] * s["C"]
    return {"bytes": 2 * planes * (s["H"] * s["W"] + s["OH"] * s["OW"]), "flops": 8 * planes * s["OH"] * s["OW"]}
