"""Daily rain depth from T scans of dBZ: idecibel -> Marshall-Palmer z_to_r -> r_to_depth, summed."""
import math

import torch
import triton
import triton.language as tl

BLOCK = 1024
LOG2_10 = tl.constexpr(3.321928094887362)


@triton.jit
def _add_scan_depth(dbz, depth, n, log2_a, inv_b, mm_per_rate, dbz_min, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    x = tl.load(dbz + offs, mask=ok, other=-100.0)
    acc = tl.load(depth + offs, mask=ok, other=0.0)
    z = tl.exp2(x * (0.1 * LOG2_10))                 # idecibel
    r = tl.exp2((tl.log2(z) - log2_a) * inv_b)       # z_to_r: (z / a) ** (1 / b)
    acc += tl.where(x < dbz_min, 0.0, r * mm_per_rate)  # r_to_depth
    tl.store(depth + offs, acc, mask=ok)


def run(dbz: torch.Tensor, a: float, b: float, interval: float, dbz_min: float) -> torch.Tensor:
    n_scans = dbz.shape[0]
    depth = torch.zeros(dbz.shape[1:], device=dbz.device, dtype=torch.float32)
    n = depth.numel()
    grid = (triton.cdiv(n, BLOCK),)
    log2_a = math.log2(a)
    for t in range(n_scans):
        _add_scan_depth[grid](dbz[t], depth, n, log2_a, 1.0 / b, interval / 3600.0, dbz_min,
                              BLOCK=BLOCK, num_warps=4)
    return depth
