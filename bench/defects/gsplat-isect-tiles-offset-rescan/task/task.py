"""Tile intersection of projected 3-D Gaussians (gsplat isect_tiles, packed=False, one camera, tile_size 16).

Each Gaussian covers the tiles of its screen-space bounding box: x tiles
[clamp(floor((mx - rx) / 16)), clamp(ceil((mx + rx) / 16))) and likewise in y, none when a radius
is 0 (culled). Intersections are laid out Gaussian by Gaussian (in the order of the exclusive cumsum
of the per-Gaussian tile counts), each Gaussian's tiles in row-major order. isect_ids (int64) =
tile_id << 32 | bits of the fp32 depth; flatten_ids (int32) = the Gaussian index.
"""
import torch

TILE = 16

META = {
    "name": "gsplat_isect_tiles",
    "level": 2,
    "category": "rendering",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 2500, "W": 96, "H": 64},
        "ragged": {"N": 3333, "W": 250, "H": 130},
        "large": {"N": 1_000_000, "W": 1920, "H": 1080},
    },
    "baseline_notes": "Three launches: per-Gaussian tile counts with per-block (256) sums; one program scans "
                      "the block sums; emission programs of 256 Gaussians add the block offset to a local "
                      "exclusive tl.cumsum and walk up to the block's largest count; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """means2d [N, 2] pixels, radii [N, 2] int32 (0 = culled), depths [N], image width, image height."""
    s = META["sizes"][size]
    N, W, H = s["N"], s["W"], s["H"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    means2d = torch.rand(N, 2, generator=g) * torch.tensor([W * 1.2, H * 1.2]) - torch.tensor([W * 0.1, H * 0.1])
    r = torch.exp(torch.randn(N, generator=g) * 0.8 + 1.6).clamp(max=min(W, H) / 3)
    aspect = torch.exp(torch.randn(N, 2, generator=g) * 0.25)
    radii = torch.ceil(r[:, None] * aspect).to(torch.int32)
    radii[torch.rand(N, generator=g) < 0.3] = 0
    depths = torch.rand(N, generator=g) * 50.0 + 0.2
    return means2d.to(dt).to(device), radii.to(device), depths.to(dt).to(device), W, H


def reference(means2d, radii, depths, W, H):
    tw, th = (W + TILE - 1) // TILE, (H + TILE - 1) // TILE
    t = means2d.float() / TILE
    rt = radii.float() / TILE
    x0 = torch.floor(t[:, 0] - rt[:, 0]).clamp(0, tw).long()
    x1 = torch.ceil(t[:, 0] + rt[:, 0]).clamp(0, tw).long()
    y0 = torch.floor(t[:, 1] - rt[:, 1]).clamp(0, th).long()
    y1 = torch.ceil(t[:, 1] + rt[:, 1]).clamp(0, th).long()
    wx = x1 - x0
    counts = wx * (y1 - y0)
    counts[(radii <= 0).any(1)] = 0
    gid = torch.repeat_interleave(torch.arange(len(counts), device=counts.device), counts)
    start = torch.cumsum(counts, 0) - counts
    k = torch.arange(len(gid), device=counts.device) - start[gid]
    tile = (y0[gid] + k // wx[gid]) * tw + x0[gid] + k % wx[gid]
    bits = depths.float().view(torch.int32).long()[gid] & 0xFFFFFFFF
    return (tile << 32) | bits, gid.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    m = 6 * s["N"]  # about 6 tiles per Gaussian at these radii
    return {"bytes": 20 * s["N"] + 12 * m, "flops": 20 * s["N"]}
