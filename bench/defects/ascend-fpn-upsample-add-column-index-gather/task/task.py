"""FPN top-down merge (torchvision FeaturePyramidNetwork): the coarser inner feature map is
upsampled 2x with nearest-neighbour interpolation to the lateral map's size and added to it,
last_inner = inner_lateral + F.interpolate(last_inner, size=feat_shape, mode="nearest").
Inputs NCHW fp32 with H = 2 * Ht and W = 2 * Wt; output NCHW like the lateral map."""
import torch
import torch.nn.functional as F

META = {
    "name": "fpn_topdown_upsample_add",
    "level": 2,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-6}},
    "sizes": {
        "small": {"N": 1, "C": 4, "H": 8, "W": 12},
        "ragged": {"N": 1, "C": 3, "H": 26, "W": 38},
        "large": {"N": 2, "C": 256, "H": 200, "W": 304},
    },
    "baseline_notes": "Grid of 40 vector-core programs, each looping over tiles of 8 coarse rows: the coarse "
                      "rows are loaded contiguously once, each value is duplicated on chip (broadcast + reshape "
                      "to the fine width), and both fine rows of the lateral map are loaded, added and stored.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """inner_lateral [N, C, H, W] (1x1 lateral conv of C2) and last_inner [N, C, H/2, W/2] (P3 inner)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lateral = torch.randn(s["N"], s["C"], s["H"], s["W"], generator=g)
    top = torch.randn(s["N"], s["C"], s["H"] // 2, s["W"] // 2, generator=g) * 0.5
    return lateral.to(dt).to(device), top.to(dt).to(device)


def reference(lateral: torch.Tensor, top: torch.Tensor) -> torch.Tensor:
    up = F.interpolate(top.double(), size=lateral.shape[-2:], mode="nearest")
    return (lateral.double() + up).to(lateral.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_out = s["N"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 4 * (2 * n_out + n_out // 4), "flops": n_out}
