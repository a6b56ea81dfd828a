"""Backward/forward sweep of a radial feeder trunk: one program per load snapshot, scans over the buses."""
import torch
import triton
import triton.language as tl


@triton.jit
def _load_current(p_row, q_row, vr_row, vi_row, offs, valid):
    p = tl.load(p_row + offs, mask=valid, other=0.0)
    q = tl.load(q_row + offs, mask=valid, other=0.0)
    vr = tl.load(vr_row + offs, mask=valid, other=1.0)
    vi = tl.load(vi_row + offs, mask=valid, other=0.0)
    inv = 1.0 / (vr * vr + vi * vi)
    return (p * vr + q * vi) * inv, (p * vi - q * vr) * inv


@triton.jit
def _bfs_sweep(p, q, vr, vi, r, x, out, N, stride_t, plane, BLOCK: tl.constexpr):
    t = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    valid = offs < N
    row = t * stride_t
    ir, ii = _load_current(p + row, q + row, vr + row, vi + row, offs, valid)
    jr = tl.cumsum(ir, axis=0, reverse=True)
    ji = tl.cumsum(ii, axis=0, reverse=True)
    zr = tl.load(r + offs, mask=valid, other=0.0)
    zx = tl.load(x + offs, mask=valid, other=0.0)
    dr = tl.cumsum(zr * jr - zx * ji, axis=0)
    di = tl.cumsum(zr * ji + zx * jr, axis=0)
    tl.store(out + row + offs, 1.0 - dr, mask=valid)
    tl.store(out + plane + row + offs, -di, mask=valid)


def run(p, q, vr, vi, r, x) -> torch.Tensor:
    T, N = p.shape
    out = torch.empty((2, T, N), device=p.device, dtype=torch.float32)
    BLOCK = triton.next_power_of_2(N)
    launch = {"num_warps": 4 if BLOCK <= 2048 else 8}
    _bfs_sweep[(T,)](p, q, vr, vi, r, x, out, N, p.stride(0), T * N, BLOCK=BLOCK, **launch)
    return out
