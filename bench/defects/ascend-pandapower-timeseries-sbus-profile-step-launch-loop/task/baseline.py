"""Time-series bus injections: load and PV profiles applied to the bus aggregates, in per unit."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sbus_profile(p_load, q_load, p_sgen, cls, load_prof, pv_prof, P, Q, T, NB, inv_base,
                  C: tl.constexpr, BT: tl.constexpr, BB: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_bb = tl.cdiv(NB, BB)
    for tile in range(pid, tl.cdiv(T, BT) * n_bb, nprog):
        ts = (tile // n_bb) * BT + tl.arange(0, BT)
        tmask = ts < T
        bus = (tile % n_bb) * BB + tl.arange(0, BB)
        bmask = bus < NB
        pl = tl.load(p_load + bus, mask=bmask, other=0.0)
        ql = tl.load(q_load + bus, mask=bmask, other=0.0)
        ps = tl.load(p_sgen + bus, mask=bmask, other=0.0)
        c = tl.load(cls + bus, mask=bmask, other=0)
        mult = tl.zeros([BT, BB], dtype=tl.float32)
        for k in tl.static_range(C):
            mk = tl.load(load_prof + k * T + ts, mask=tmask, other=0.0)
            mult = tl.where(c[None, :] == k, mk[:, None], mult)
        pv = tl.load(pv_prof + ts, mask=tmask, other=0.0)
        m = tmask[:, None] & bmask[None, :]
        offs = ts[:, None] * NB + bus[None, :]
        tl.store(P + offs, (ps[None, :] * pv[:, None] - pl[None, :] * mult) * inv_base, mask=m)
        tl.store(Q + offs, -(ql[None, :] * mult) * inv_base, mask=m)


def run(p_load, q_load, p_sgen, cls, load_prof, pv_prof, base_mva) -> tuple:
    NB = p_load.shape[0]
    C, T = load_prof.shape
    P = torch.empty((T, NB), device=p_load.device, dtype=p_load.dtype)
    Q = torch.empty((T, NB), device=p_load.device, dtype=p_load.dtype)
    BT, BB = 8, 512
    grid = (min(_VECTOR_CORES, triton.cdiv(T, BT) * triton.cdiv(NB, BB)),)
    _sbus_profile[grid](p_load, q_load, p_sgen, cls, load_prof, pv_prof, P, Q, T, NB,
                        1.0 / base_mva, C=C, BT=BT, BB=BB)
    return P, Q
