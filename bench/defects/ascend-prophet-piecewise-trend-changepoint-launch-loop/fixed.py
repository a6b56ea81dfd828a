"""Prophet piecewise-linear trend over a fleet of series (wide [dates, series] layout)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BT = 16
_BS = 256


@triton.jit
def _trend(t, cp, k, m, delta, y_scale, out, T, S, C, BT: tl.constexpr, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_sb = tl.cdiv(S, BS)
    for tile in range(pid, tl.cdiv(T, BT) * n_sb, nprog):
        rows = (tile // n_sb) * BT + tl.arange(0, BT)
        cols = (tile % n_sb) * BS + tl.arange(0, BS)
        rmask = rows < T
        cmask = cols < S
        mask = rmask[:, None] & cmask[None, :]
        tt = tl.load(t + rows, mask=rmask, other=0.0)
        k0 = tl.load(k + cols, mask=cmask, other=0.0)
        m0 = tl.load(m + cols, mask=cmask, other=0.0)
        kk = tl.zeros([BT, BS], dtype=tl.float32) + k0[None, :]
        mm = tl.zeros([BT, BS], dtype=tl.float32) + m0[None, :]
        for j in range(C):
            c_j = tl.load(cp + j)
            d = tl.load(delta + j * S + cols, mask=cmask, other=0.0)
            on = (tt >= c_j)[:, None]
            kk += tl.where(on, d[None, :], 0.0)
            mm += tl.where(on, (-c_j * d)[None, :], 0.0)
        sc = tl.load(y_scale + cols, mask=cmask, other=0.0)
        offs = rows[:, None] * S + cols[None, :]
        tl.store(out + offs, (kk * tt[:, None] + mm) * sc[None, :], mask=mask)


def run(t, cp, k, m, delta, y_scale):
    T = t.shape[0]
    C, S = delta.shape
    out = torch.empty((T, S), device=t.device, dtype=t.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(T, _BT) * triton.cdiv(S, _BS)),)
    _trend[grid](t, cp, k, m, delta, y_scale, out, T, S, C, BT=_BT, BS=_BS)
    return out
