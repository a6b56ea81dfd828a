"""RAFT correlation pyramid: repeated 2x2 average pooling of the all-pairs correlation volume.

RAFT's CorrBlock (Teed & Deng, ECCV 2020) computes the 4-D correlation volume of the two 1/8-resolution
feature maps, reshapes it to [N, 1, H, W] with N = B * H1 * W1 (one 2-D slice per source pixel), and
builds a 4-level pyramid over the target dimensions with
    for i in range(num_levels - 1): corr = F.avg_pool2d(corr, 2, stride=2); pyramid.append(corr)
(floor semantics: an odd last row / column is dropped). This task builds levels 1..3 from level 0
and returns them as a tuple of fp32 tensors [N, 1, H >> l, W >> l] (sizes floored at every step).
"""
import torch
import torch.nn.functional as F

META = {
    "name": "raft_corr_pyramid",
    "level": 1,
    "category": "pooling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"B": 1, "H": 10, "W": 12},
        "ragged": {"B": 2, "H": 13, "W": 19},
        "large": {"B": 1, "H": 55, "W": 128},
    },
    "baseline_notes": "One launch per pyramid level; 40 programs (the 910B's vector cores) loop over tiles of "
                      "[BN slices, BY output rows]; each tile reads its two input rows per output row as "
                      "contiguous [BN, BY, 2*BWo] loads, adds them, then sums the column pairs on chip "
                      "(reshape to [..., BWo, 2], sum over the last axis) and stores the 1/4-scaled result; "
                      "tiles of 4,096 input elements per load (16 KiB); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Level-0 correlation corr [B*H*W, 1, H, W] of two random unit-scale 256-channel feature maps."""
    s = META["sizes"][size]
    b, h, w = s["B"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    c = 256
    f1 = torch.randn(b, c, h * w, generator=g)
    f2 = torch.randn(b, c, h * w, generator=g)
    corr = torch.matmul(f1.transpose(1, 2), f2) / c ** 0.5      # RAFT scales by 1/sqrt(dim)
    corr = corr.reshape(b * h * w, 1, h, w).contiguous()
    return (corr.to(dt).to(device),)


def reference(corr: torch.Tensor) -> tuple:
    levels = []
    x = corr.double()
    for _ in range(3):
        x = F.avg_pool2d(x, 2, stride=2)
        levels.append(x.to(corr.dtype))
    return tuple(levels)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, h, w = s["B"] * s["H"] * s["W"], s["H"], s["W"]
    moved = 0
    for _ in range(3):
        moved += 4 * n * (h * w + (h // 2) * (w // 2))
        h, w = h // 2, w // 2
    return {"bytes": moved, "flops": moved // 4}
