"""Sweep-and-prune broadphase, counting pass: later overlapping partners of every sorted AABB."""
import torch
import triton
import triton.language as tl

BLOCK = 64


@triton.jit
def _sap_count(bounds, counts, n, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    i = pid * BLOCK + tl.arange(0, BLOCK)
    row_ok = i < n
    hix_i = tl.load(bounds + 3 * stride + i, mask=row_ok, other=-float("inf"))
    loy_i = tl.load(bounds + 1 * stride + i, mask=row_ok, other=0.0)
    loz_i = tl.load(bounds + 2 * stride + i, mask=row_ok, other=0.0)
    hiy_i = tl.load(bounds + 4 * stride + i, mask=row_ok, other=0.0)
    hiz_i = tl.load(bounds + 5 * stride + i, mask=row_ok, other=0.0)
    hits = tl.zeros([BLOCK], dtype=tl.int32)
    # sweep the partner tiles after this one until a tile starts past the block's reach (lo_x is sorted)
    reach = tl.max(hix_i, axis=0)
    n_tiles = tl.cdiv(n, BLOCK)
    t = pid
    while (t < n_tiles) and (tl.load(bounds + t * BLOCK) <= reach):
        j = t * BLOCK + tl.arange(0, BLOCK)
        col_ok = j < n
        lox_j = tl.load(bounds + j, mask=col_ok, other=float("inf"))
        loy_j = tl.load(bounds + 1 * stride + j, mask=col_ok, other=0.0)
        loz_j = tl.load(bounds + 2 * stride + j, mask=col_ok, other=0.0)
        hiy_j = tl.load(bounds + 4 * stride + j, mask=col_ok, other=0.0)
        hiz_j = tl.load(bounds + 5 * stride + j, mask=col_ok, other=0.0)
        overlap = (j[None, :] > i[:, None]) & (lox_j[None, :] <= hix_i[:, None])
        overlap = overlap & (loy_j[None, :] <= hiy_i[:, None]) & (loy_i[:, None] <= hiy_j[None, :])
        overlap = overlap & (loz_j[None, :] <= hiz_i[:, None]) & (loz_i[:, None] <= hiz_j[None, :])
        hits += tl.sum(overlap.to(tl.int32), axis=1)
        t += 1
    tl.store(counts + i, hits, mask=row_ok)


def run(bounds: torch.Tensor) -> torch.Tensor:
    n = bounds.shape[1]
    counts = torch.empty(n, device=bounds.device, dtype=torch.int32)
    _sap_count[(triton.cdiv(n, BLOCK),)](bounds, counts, n, bounds.stride(0), BLOCK=BLOCK, num_warps=8)
    return counts
