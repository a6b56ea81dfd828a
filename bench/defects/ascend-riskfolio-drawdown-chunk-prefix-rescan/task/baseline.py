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
    for cb in range(pid, tl.cdiv(P, BP), nprog):
        cols = cb * BP + p_off
        cmask = cols < P
        nav = tl.zeros([BP], dtype=tl.float32)   # cumulative return so far (NAV - 1)
        peak = tl.zeros([BP], dtype=tl.float32)  # running peak, starts at the initial NAV
        for t0 in range(0, T, BT):
            rows = t0 + t_off
            mask = (rows < T)[:, None] & cmask[None, :]
            x = tl.load(r_ptr + rows[:, None] * stride_r + cols[None, :], mask=mask, other=0.0)
            c = nav[None, :] + tl.cumsum(x, axis=0)
            pk = tl.maximum(peak[None, :], tl.associative_scan(c, 0, _max_combine))
            tl.store(dd_ptr + rows[:, None] * stride_d + cols[None, :], pk - c, mask=mask)
            nav = nav + tl.sum(x, axis=0)
            peak = tl.max(pk, axis=0)


def run(r: torch.Tensor) -> torch.Tensor:
    T, P = r.shape
    dd = torch.empty((T, P), device=r.device, dtype=r.dtype)
    BT, BP = 32, 128
    grid = (min(_VECTOR_CORES, triton.cdiv(P, BP)),)
    _underwater_fwd[grid](r, dd, T, P, r.stride(0), dd.stride(0), BT=BT, BP=BP)
    return dd
