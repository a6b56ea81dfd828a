"""CenterPoint heatmap peak extraction (max-pool NMS, OpenPCDet centernet_utils._nms / CenterNet style).

heat [B, C, H, W] holds the sigmoid class heatmaps of the CenterHead (nuScenes: 10 classes over the
6 task heads, 180 x 180 BEV cells at voxel 0.075 m and output stride 8). A cell is kept when it equals
the maximum of its 3 x 3 neighbourhood (max_pool2d, kernel 3, stride 1, padding 1); the rest are zeroed.
"""
import torch
import torch.nn.functional as F

META = {
    "name": "centerpoint_heatmap_nms",
    "level": 1,
    "category": "detection",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 1, "C": 2, "H": 12, "W": 20},
        "ragged": {"B": 2, "C": 3, "H": 13, "W": 19},
        "large": {"B": 8, "C": 10, "H": 180, "W": 180},
    },
    "baseline_notes": "40 persistent programs loop over [8, next_pow2(W)] tiles of one class plane: nine shifted "
                      "masked loads for the 3 x 3 maximum, one centre load, one store.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """heat [B, C, H, W] in (0, 1): sigmoid of logits with a few sharp peaks."""
    s = META["sizes"][size]
    B, C, H, W = s["B"], s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    logits = torch.randn(B, C, H, W, generator=g) * 1.5 - 3.0
    peaks = torch.rand(B, C, H, W, generator=g) < 0.01
    logits = logits + peaks * 6.0
    return (torch.sigmoid(logits).to(dt).to(device),)


def reference(heat: torch.Tensor) -> torch.Tensor:
    hmax = F.max_pool2d(heat, kernel_size=3, stride=1, padding=1)
    return heat * (hmax == heat).to(heat.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 8 * n, "flops": 10 * n}
