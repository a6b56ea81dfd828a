"""Uncompounded drawdown (underwater) curves: dd_t = running peak of NAV - NAV, NAV = 1 + cumsum(r)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def _underwater_fwd(r_ptr, dd_ptr, T, P, stride_r, stride_d,
                    BT: tl.constexpr, BP: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    t_off = tl.arange(0, BT)
    p_off = tl.arange(0, BP)
    n_cb = tl.cdiv(P, BP)
    # every (time tile, series block) pair is an independent work item so all cores get work
    for item in range(pid, tl.cdiv(T, BT) * n_cb, nprog):
        tb = item // n_cb
        cb = item % n_cb
        cols = cb * BP + p_off
        cmask = cols < P
        # NAV and peak entering this time tile: rebuilt from the tiles before it
        nav = tl.zeros([BP], dtype=tl.float32)
        peak = tl.zeros([BP], dtype=tl.float32)
        for s0 in range(0, tb * BT, BT):
            prev = s0 + t_off
            pmask = (prev < T)[:, None] & cmask[None, :]
            y = tl.load(r_ptr + prev[:, None] * stride_r + cols[None, :], mask=pmask, other=0.0)
            cy = nav[None, :] + tl.cumsum(y, axis=0)
            peak = tl.maximum(peak, tl.max(cy, axis=0))
            nav = nav + tl.sum(y, axis=0)
        rows = tb * BT + t_off
        mask = (rows < T)[:, None] & cmask[None, :]
        x = tl.load(r_ptr + rows[:, None] * stride_r + cols[None, :], mask=mask, other=0.0)
        c = nav[None, :] + tl.cumsum(x, axis=0)
        pk = tl.maximum(peak[None, :], tl.associative_scan(c, 0, _max_combine))
        tl.store(dd_ptr + rows[:, None] * stride_d + cols[None, :], pk - c, mask=mask)


def run(r: torch.Tensor) -> torch.Tensor:
    T, P = r.shape
    dd = torch.empty((T, P), device=r.device, dtype=r.dtype)
    BT, BP = 32, 128
    n_items = triton.cdiv(T, BT) * triton.cdiv(P, BP)
    grid = (min(_VECTOR_CORES, n_items),)
    _underwater_fwd[grid](r, dd, T, P, r.stride(0), dd.stride(0), BT=BT, BP=BP)
    return dd
