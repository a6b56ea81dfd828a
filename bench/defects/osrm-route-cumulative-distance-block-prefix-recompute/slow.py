"""Distance travelled along each route geometry: running sum of OSRM great-circle segment lengths."""
import torch
import triton
import triton.language as tl

BLOCK = 512
EARTH_RADIUS = tl.constexpr(6372797.560856)
RAD_PER_UDEG = tl.constexpr(1.7453292519943295e-08)   # radians per micro-degree


@triton.jit
def _segment_metres(pts, idx, n_pts):
    """Length of the segment that ends at point idx (0 for the first point and past the end)."""
    has = (idx > 0) & (idx < n_pts)
    lon1 = tl.load(pts + 2 * idx - 2, mask=has, other=0)
    lat1 = tl.load(pts + 2 * idx - 1, mask=has, other=0)
    lon2 = tl.load(pts + 2 * idx, mask=has, other=0)
    lat2 = tl.load(pts + 2 * idx + 1, mask=has, other=0)
    dlon = (lon2 - lon1).to(tl.float32) * RAD_PER_UDEG
    dlat = (lat2 - lat1).to(tl.float32) * RAD_PER_UDEG
    mid = (lat1 + lat2).to(tl.float32) * (0.5 * RAD_PER_UDEG)
    x = dlon * tl.cos(mid)
    return tl.sqrt(x * x + dlat * dlat) * EARTH_RADIUS


@triton.jit
def _cumulative_distance(coords, cum, n_pts, BLOCK: tl.constexpr):
    blk = tl.program_id(0)
    route = tl.program_id(1)
    pts = coords + route * (2 * n_pts)
    out = cum + route * n_pts
    offs = tl.arange(0, BLOCK)
    # distance covered before this block: the length of every earlier segment of the route
    carry = tl.zeros([], dtype=tl.float32)
    for prev in range(0, blk):
        carry += tl.sum(_segment_metres(pts, prev * BLOCK + offs, n_pts), axis=0)
    idx = blk * BLOCK + offs
    seg = _segment_metres(pts, idx, n_pts)
    tl.store(out + idx, carry + tl.cumsum(seg, axis=0), mask=idx < n_pts)


def run(coords: torch.Tensor) -> torch.Tensor:
    n_routes, n_pts = coords.shape[0], coords.shape[1]
    cum = torch.empty(n_routes, n_pts, device=coords.device, dtype=torch.float32)
    grid = (triton.cdiv(n_pts, BLOCK), n_routes)
    _cumulative_distance[grid](coords, cum, n_pts, BLOCK=BLOCK, num_warps=4)
    return cum
