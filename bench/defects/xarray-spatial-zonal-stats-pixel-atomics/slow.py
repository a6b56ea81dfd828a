"""Zonal count and sum of a value raster over a land-cover label raster."""
import torch
import triton
import triton.language as tl


@triton.jit
def _zonal_count_sum(values, zones, counts, sums, n, num_zones, nodata, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    z = tl.load(zones + offs, mask=m, other=-1)
    v = tl.load(values + offs, mask=m, other=0.0)
    ok = m & (z >= 0) & (z < num_zones) & (v != nodata)
    tl.atomic_add(counts + z, 1, mask=ok)
    tl.atomic_add(sums + z, v.to(tl.float64), mask=ok)


def run(values: torch.Tensor, zones: torch.Tensor, num_zones: int, nodata: float):
    n = values.numel()
    counts = torch.zeros(num_zones, device=values.device, dtype=torch.int32)
    sums = torch.zeros(num_zones, device=values.device, dtype=torch.float64)
    BLOCK = 1024
    _zonal_count_sum[(triton.cdiv(n, BLOCK),)](values, zones, counts, sums, n, num_zones, nodata,
                                               BLOCK=BLOCK, num_warps=4)
    return counts, sums
