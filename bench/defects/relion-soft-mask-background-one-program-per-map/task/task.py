"""Soft spherical mask with background fill of reconstructed maps (RELION softMaskOutsideMap, src/mask.cpp).

Applied to every map a reconstruction produces (BackProjector::reconstruct masks its output; in 3D
classification one map per class). For a map of B^3 voxels with the origin at index B // 2 (Xmipp origin), a
voxel at distance r from the centre gets the raised-cosine background weight
    c(r) = 0                                                   r < radius
    c(r) = 0.5 + 0.5 cos(pi (radius + width - r) / width)      radius <= r <= radius + width
    c(r) = 1                                                   r > radius + width
The background value of the map is the c-weighted mean bg = sum c v / sum c, and the masked map is
    v' = (1 - c) v + c bg.
RELION's defaults: radius = B / 2, cosine width 3 voxels. Input maps [K, B, B, B] fp32; output the same shape.
"""
import math

import torch

META = {
    "name": "soft_mask_outside_map",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"K": 2, "B": 16},
        "ragged": {"K": 3, "B": 19},
        "large": {"K": 4, "B": 256},
    },
    "baseline_notes": "Two launches. Background sums: grid (K, 128) where each program walks a contiguous slab of "
                      "[8, next_pow2(B)] row tiles of its map, keeping sum c*v and sum c in registers, and writes "
                      "one partial pair; apply: grid (row tiles, K), each program sums its map's 128 partials, "
                      "recomputes c per voxel and writes (1 - c) v + c bg. 4 warps, no autotune.",
    "deterministic": True,
}
WIDTH = 3.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """maps [K, B, B, B] (a blob of density on noise with a non-zero solvent level), radius, cosine width."""
    s = META["sizes"][size]
    k, b = s["K"], s["B"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    idx = torch.arange(b, dtype=torch.float32) - b // 2
    r2 = idx[:, None, None] ** 2 + idx[None, :, None] ** 2 + idx[None, None, :] ** 2
    blob = torch.exp(-r2 / (2.0 * (0.2 * b) ** 2))
    solvent = 0.2 * torch.randn(k, 1, 1, 1, generator=g)
    maps = blob[None] * (1.0 + torch.rand(k, 1, 1, 1, generator=g)) + solvent
    maps = maps + 0.1 * torch.randn(k, b, b, b, generator=g)
    return maps.to(device=device, dtype=dt), b / 2.0, WIDTH


def reference(maps: torch.Tensor, radius: float, width: float) -> torch.Tensor:
    k, b = maps.shape[0], maps.shape[1]
    idx = torch.arange(b, device=maps.device, dtype=torch.float64) - b // 2
    r = torch.sqrt(idx[:, None, None] ** 2 + idx[None, :, None] ** 2 + idx[None, None, :] ** 2)
    outer = radius + width
    c = torch.where(r > outer, torch.ones_like(r), 0.5 + 0.5 * torch.cos(math.pi * (outer - r) / width))
    c = torch.where(r < radius, torch.zeros_like(r), c)
    v = maps.double()
    bg = (v * c).sum(dim=(1, 2, 3)) / c.sum()
    return ((1.0 - c) * v + c * bg[:, None, None, None]).to(maps.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["K"] * s["B"] ** 3
    return {"bytes": 12 * n, "flops": 30 * n}
