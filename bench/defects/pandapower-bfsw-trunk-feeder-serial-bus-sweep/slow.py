"""Backward/forward sweep of a radial feeder trunk: one program per load snapshot, walking the buses."""
import torch
import triton
import triton.language as tl


@triton.jit
def _load_current(p_row, q_row, vr_row, vi_row, k):
    p = tl.load(p_row + k)
    q = tl.load(q_row + k)
    vr = tl.load(vr_row + k)
    vi = tl.load(vi_row + k)
    inv = 1.0 / (vr * vr + vi * vi)
    return (p * vr + q * vi) * inv, (p * vi - q * vr) * inv


@triton.jit
def _bfs_sweep(p, q, vr, vi, r, x, out, N, stride_t, plane):
    t = tl.program_id(0)
    row = t * stride_t
    p_row = p + row
    q_row = q + row
    vr_row = vr + row
    vi_row = vi + row
    # backward sweep: total current through the substation section
    jr = 0.0
    ji = 0.0
    for m in range(0, N):
        k = N - 1 - m
        ir, ii = _load_current(p_row, q_row, vr_row, vi_row, k)
        jr += ir
        ji += ii
    # forward sweep: voltage drops, section current less the loads already served
    dr = 0.0
    di = 0.0
    for k in range(0, N):
        zr = tl.load(r + k)
        zx = tl.load(x + k)
        dr += zr * jr - zx * ji
        di += zr * ji + zx * jr
        tl.store(out + row + k, 1.0 - dr)
        tl.store(out + plane + row + k, -di)
        ir, ii = _load_current(p_row, q_row, vr_row, vi_row, k)
        jr -= ir
        ji -= ii


def run(p, q, vr, vi, r, x) -> torch.Tensor:
    T, N = p.shape
    out = torch.empty((2, T, N), device=p.device, dtype=torch.float32)
    BLOCK = triton.next_power_of_2(N)
    launch = {"num_warps": 4 if BLOCK <= 2048 else 8}
    _bfs_sweep[(T,)](p, q, vr, vi, r, x, out, N, p.stride(0), T * N, **launch)
    return out
