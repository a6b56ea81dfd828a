"""Nearest lane-centerline distance for query points against the polyline segments of the vector map."""
import torch
import triton
import triton.language as tl

BLOCK_S = 256


@triton.jit
def _segment(pts, seg, ok, P: tl.constexpr):
    """Start point, direction and inverse squared length of flattened segments (P - 1 per polyline)."""
    a = 2 * (seg + seg // (P - 1))
    ax = tl.load(pts + a, mask=ok, other=0.0)
    ay = tl.load(pts + a + 1, mask=ok, other=0.0)
    abx = tl.load(pts + a + 2, mask=ok, other=1.0) - ax
    aby = tl.load(pts + a + 3, mask=ok, other=0.0) - ay
    inv = 1.0 / tl.maximum(abx * abx + aby * aby, 1e-12)
    return ax, ay, abx, aby, inv


@triton.jit
def _clamped_d2(dx, dy, abx, aby, inv):
    t = tl.minimum(tl.maximum((dx * abx + dy * aby) * inv, 0.0), 1.0)
    ex = dx - t * abx
    ey = dy - t * aby
    return ex * ex + ey * ey


@triton.jit
def _nearest_centerline(q, pts, out, n_seg, P: tl.constexpr, BLOCK_S: tl.constexpr):
    i = tl.program_id(0)
    qx = tl.load(q + 2 * i)
    qy = tl.load(q + 2 * i + 1)
    best = tl.full([BLOCK_S], float("inf"), tl.float32)
    for s0 in range(0, n_seg, BLOCK_S):
        seg = s0 + tl.arange(0, BLOCK_S)
        ok = seg < n_seg
        ax, ay, abx, aby, inv = _segment(pts, seg, ok, P)
        d2 = _clamped_d2(qx - ax, qy - ay, abx, aby, inv)
        best = tl.minimum(best, tl.where(ok, d2, float("inf")))
    tl.store(out + i, tl.sqrt(tl.min(best, axis=0)))


def run(queries: torch.Tensor, polylines: torch.Tensor) -> torch.Tensor:
    n_q = queries.shape[0]
    L, P, _ = polylines.shape
    out = torch.empty(n_q, device=queries.device, dtype=torch.float32)
    _nearest_centerline[(n_q,)](queries, polylines, out, L * (P - 1), P=P, BLOCK_S=BLOCK_S, num_warps=4)
    return out
