"""Prophet piecewise-linear trend over a fleet of series (wide [dates, series] layout)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BT = 16
_BS = 256


@triton.jit
def _trend_init(k, m, k_t, m_t, T, S, BT: tl.constexpr, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_sb = tl.cdiv(S, BS)
    for tile in range(pid, tl.cdiv(T, BT) * n_sb, nprog):
        rows = (tile // n_sb) * BT + tl.arange(0, BT)
        cols = (tile % n_sb) * BS + tl.arange(0, BS)
        cmask = cols < S
        mask = (rows < T)[:, None] & cmask[None, :]
        k0 = tl.load(k + cols, mask=cmask, other=0.0)
        m0 = tl.load(m + cols, mask=cmask, other=0.0)
        offs = rows[:, None] * S + cols[None, :]
        tl.store(k_t + offs, tl.zeros([BT, BS], dtype=tl.float32) + k0[None, :], mask=mask)
        tl.store(m_t + offs, tl.zeros([BT, BS], dtype=tl.float32) + m0[None, :], mask=mask)


@triton.jit
def _trend_changepoint(t, cp, delta, j, k_t, m_t, T, S, BT: tl.constexpr, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_sb = tl.cdiv(S, BS)
    c_j = tl.load(cp + j)
    for tile in range(pid, tl.cdiv(T, BT) * n_sb, nprog):
        rows = (tile // n_sb) * BT + tl.arange(0, BT)
        cols = (tile % n_sb) * BS + tl.arange(0, BS)
        rmask = rows < T
        cmask = cols < S
        mask = rmask[:, None] & cmask[None, :]
        tt = tl.load(t + rows, mask=rmask, other=0.0)
        d = tl.load(delta + j * S + cols, mask=cmask, other=0.0)
        on = (tt >= c_j)[:, None]
        offs = rows[:, None] * S + cols[None, :]
        kk = tl.load(k_t + offs, mask=mask, other=0.0)
        mm = tl.load(m_t + offs, mask=mask, other=0.0)
        kk += tl.where(on, d[None, :], 0.0)
        mm += tl.where(on, (-c_j * d)[None, :], 0.0)
        tl.store(k_t + offs, kk, mask=mask)
        tl.store(m_t + offs, mm, mask=mask)


@triton.jit
def _trend_finish(t, k_t, m_t, y_scale, out, T, S, BT: tl.constexpr, BS: tl.constexpr):
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
        sc = tl.load(y_scale + cols, mask=cmask, other=0.0)
        offs = rows[:, None] * S + cols[None, :]
        kk = tl.load(k_t + offs, mask=mask, other=0.0)
        mm = tl.load(m_t + offs, mask=mask, other=0.0)
        tl.store(out + offs, (kk * tt[:, None] + mm) * sc[None, :], mask=mask)


def run(t, cp, k, m, delta, y_scale):
    T = t.shape[0]
    C, S = delta.shape
    out = torch.empty((T, S), device=t.device, dtype=t.dtype)
    k_t = torch.empty((T, S), device=t.device, dtype=torch.float32)
    m_t = torch.empty((T, S), device=t.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(T, _BT) * triton.cdiv(S, _BS)),)
    _trend_init[grid](k, m, k_t, m_t, T, S, BT=_BT, BS=_BS)
    # forecaster.piecewise_linear: for s, t_s in enumerate(changepoint_ts): k_t[t >= t_s] += deltas[s] ...
    for j in range(C):
        _trend_changepoint[grid](t, cp, delta, j, k_t, m_t, T, S, BT=_BT, BS=_BS)
    _trend_finish[grid](t, k_t, m_t, y_scale, out, T, S, BT=_BT, BS=_BS)
    return out
