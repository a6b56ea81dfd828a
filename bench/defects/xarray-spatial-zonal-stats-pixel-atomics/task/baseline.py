"""Zonal count and sum of a value raster over a land-cover label raster."""
import torch
import triton
import triton.language as tl


@triton.jit
def _zonal_count_sum(values, zones, counts, sums, n, num_zones, nodata,
                     BLOCK: tl.constexpr, TILES: tl.constexpr, ZB: tl.constexpr):
    zid = tl.arange(0, ZB)
    acc_n = tl.zeros([BLOCK, ZB], dtype=tl.int32)
    acc_s = tl.zeros([BLOCK, ZB], dtype=tl.float32)
    start = tl.program_id(0) * (BLOCK * TILES)
    for t in range(TILES):
        offs = start + t * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        z = tl.load(zones + offs, mask=m, other=-1)
        v = tl.load(values + offs, mask=m, other=0.0)
        ok = m & (v != nodata)
        hit = (z[:, None] == zid[None, :]) & ok[:, None]
        acc_n += hit.to(tl.int32)
        acc_s += tl.where(hit, v[:, None], 0.0)
    in_range = zid < num_zones
    tl.atomic_add(counts + zid, tl.sum(acc_n, axis=0), mask=in_range)
    tl.atomic_add(sums + zid, tl.sum(acc_s, axis=0).to(tl.float64), mask=in_range)


def run(values: torch.Tensor, zones: torch.Tensor, num_zones: int, nodata: float):
    n = values.numel()
    counts = torch.zeros(num_zones, device=values.device, dtype=torch.int32)
    sums = torch.zeros(num_zones, device=values.device, dtype=torch.float64)
    BLOCK, TILES = 256, 128
    ZB = triton.next_power_of_2(num_zones)
    _zonal_count_sum[(triton.cdiv(n, BLOCK * TILES),)](values, zones, counts, sums, n, num_zones, nodata,
                                                       BLOCK=BLOCK, TILES=TILES, ZB=ZB, num_warps=4)
    return counts, sums
