"""Nearest lane-centerline distance for query points against the polyline segments of the vector map."""
import torch
import triton
import triton.language as tl

BLOCK_Q = 64
BLOCK_S = 64


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
def _nearest_centerline(q, pts, out, n_q, n_seg, P: tl.constexpr, BLOCK_Q: tl.constexpr, BLOCK_S: tl.constexpr):
    qs = tl.program_id(0) * BLOCK_Q + tl.arange(0, BLOCK_Q)
    q_ok = qs < n_q
    qx = tl.load(q + 2 * qs, mask=q_ok, other=0.0)
    qy = tl.load(q + 2 * qs + 1, mask=q_ok, other=0.0)
    best = tl.full([BLOCK_Q, BLOCK_S], float("inf"), tl.float32)
    for s0 in range(0, n_seg, BLOCK_S):
        seg = s0 + tl.arange(0, BLOCK_S)
        ok = seg < n_seg
        ax, ay, abx, aby, inv = _segment(pts, seg, ok, P)
        d2 = _clamped_d2(qx[:, None] - ax[None, :], qy[:, None] - ay[None, :],
                         abx[None, :], aby[None, :], inv[None, :])
        best = tl.minimum(best, tl.where(ok[None, :], d2, float("inf")))
    tl.store(out + qs, tl.sqrt(tl.min(best, axis=1)), mask=q_ok)


def run(queries: torch.Tensor, polylines: torch.Tensor) -> torch.Tensor:
    n_q = queries.shape[0]
    L, P, _ = polylines.shape
    out = torch.empty(n_q, device=queries.device, dtype=torch.float32)
    grid = (triton.cdiv(n_q, BLOCK_Q),)
    _nearest_centerline[grid](queries, polylines, out, n_q, L * (P - 1), P=P,
                              BLOCK_Q=BLOCK_Q, BLOCK_S=BLOCK_S, num_warps=4)
    return out
