"""Distance (metric distortion) error of the spherical mapping: per-vertex and total SSE."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_UNFOUND_DIST = 1.0e6


@triton.jit
def _dist_error(dist, dist_orig, v_sse, partial, V, K, dist_scale,
                UNFOUND: tl.constexpr, BV: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    total = tl.zeros([BV], dtype=tl.float32)
    cols = tl.arange(0, BK)
    cmask = cols < K
    for blk in range(pid, tl.cdiv(V, BV), nprog):
        rows = blk * BV + tl.arange(0, BV)
        rmask = rows < V
        # the block's neighbour rows as [BV, BK] tiles, contiguous along each row
        m2 = rmask[:, None] & cmask[None, :]
        d0 = tl.load(dist_orig + rows[:, None] * K + cols[None, :], mask=m2, other=UNFOUND)
        dt = tl.load(dist + rows[:, None] * K + cols[None, :], mask=m2, other=0.0)
        delta = dist_scale * dt - d0
        acc = tl.sum(tl.where(d0 < UNFOUND, delta * delta, 0.0), axis=1)
        tl.store(v_sse + rows, acc, mask=rmask)
        total += acc
    tl.store(partial + pid, tl.sum(total, axis=0))


@triton.jit
def _sum_partials(partial, sse, n, BP: tl.constexpr):
    offs = tl.arange(0, BP)
    p = tl.load(partial + offs, mask=offs < n, other=0.0)
    tl.store(sse, tl.sum(p, axis=0))


def run(dist: torch.Tensor, dist_orig: torch.Tensor, dist_scale: float) -> tuple:
    V, K = dist.shape
    v_sse = torch.empty((V,), device=dist.device, dtype=dist.dtype)
    sse = torch.empty((1,), device=dist.device, dtype=dist.dtype)
    BV = 64
    BK = triton.next_power_of_2(K)
    nprog = min(_VECTOR_CORES, triton.cdiv(V, BV))
    partial = torch.empty((nprog,), device=dist.device, dtype=torch.float32)
    _dist_error[(nprog,)](dist, dist_orig, v_sse, partial, V, K, dist_scale,
                          UNFOUND=_UNFOUND_DIST, BV=BV, BK=BK)
    _sum_partials[(1,)](partial, sse, nprog, BP=triton.next_power_of_2(nprog))
    return v_sse, sse
