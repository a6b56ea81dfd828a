"""RAFT all-pairs correlation volume (CorrBlock.corr, the level 0 of RAFT's correlation pyramid).

RAFT (Teed & Deng, ECCV 2020) extracts 256-channel feature maps of both frames at 1/8 resolution and
correlates every pixel of frame 1 with every pixel of frame 2:
    corr[b, i, j] = sum_d fmap1[b, d, i] * fmap2[b, d, j] / sqrt(D)      (i, j flattened H*W pixels)
CorrBlock keeps the result as a stack of per-pixel correlation maps, shape [B*H*W, 1, H, W] (the
tensor its avg-pool pyramid and lookup read). Inputs are NCHW fp32 feature maps as RAFT's fnet
produces them (RAFT casts both maps to float before building the volume).
"""
import math

import torch

META = {
    "name": "raft_all_pairs_correlation",
    "level": 2,
    "category": "correlation",
    "dtypes": ["float32"],
    # tf32 tensor-core products (Triton's default for fp32 tl.dot) stay well inside this.
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 1, "D": 32, "H": 6, "W": 8},
        "ragged": {"B": 2, "D": 40, "H": 5, "W": 13},
        "large": {"B": 1, "D": 256, "H": 55, "W": 128},
    },
    "baseline_notes": "Tiled tl.dot over (query block x key block x batch): 128x128 output tiles, the 256 "
                      "channels in steps of 32 (tf32), fp32 accumulate, scaled by 1/sqrt(D) and stored "
                      "once; 8 warps, 3 stages, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """fmap1, fmap2 [B, D, H, W]: unit-variance features; frame 2 is frame 1 shifted by a few pixels plus noise."""
    s = META["sizes"][size]
    B, D, H, W = s["B"], s["D"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    fmap1 = torch.randn(B, D, H, W, generator=g)
    fmap2 = 0.8 * torch.roll(fmap1, shifts=(1, 3), dims=(2, 3)) + 0.6 * torch.randn(B, D, H, W, generator=g)
    return fmap1.to(device=device, dtype=dt), fmap2.to(device=device, dtype=dt)


def reference(fmap1: torch.Tensor, fmap2: torch.Tensor) -> torch.Tensor:
    B, D, H, W = fmap1.shape
    f1 = fmap1.double().reshape(B, D, H * W)
    f2 = fmap2.double().reshape(B, D, H * W)
    corr = torch.matmul(f1.transpose(1, 2), f2) / math.sqrt(D)
    return corr.reshape(B * H * W, 1, H, W).to(fmap1.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, D, HW = s["B"], s["D"], s["H"] * s["W"]
    return {"bytes": 4 * (2 * B * D * HW + B * HW * HW), "flops": 2 * B * HW * HW * D}
