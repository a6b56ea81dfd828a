"""Time-series bus injections: load and PV profiles applied to the bus aggregates, in per unit."""
import torch
import triton
import triton.language as tl


@triton.jit
def _sbus_profile(p_load, q_load, p_sgen, cls, load_prof, pv_prof, P, Q, t, T, NB, inv_base,
                  C: tl.constexpr, BB: tl.constexpr):
    bus = tl.program_id(0) * BB + tl.arange(0, BB)
    bmask = bus < NB
    pl = tl.load(p_load + bus, mask=bmask, other=0.0)
    ql = tl.load(q_load + bus, mask=bmask, other=0.0)
    ps = tl.load(p_sgen + bus, mask=bmask, other=0.0)
    c = tl.load(cls + bus, mask=bmask, other=0)
    mult = tl.zeros([BB], dtype=tl.float32)
    for k in tl.static_range(C):
        mk = tl.load(load_prof + k * T + t)
        mult = tl.where(c == k, mk, mult)
    pv = tl.load(pv_prof + t)
    tl.store(P + t * NB + bus, (ps * pv - pl * mult) * inv_base, mask=bmask)
    tl.store(Q + t * NB + bus, -(ql * mult) * inv_base, mask=bmask)


def run(p_load, q_load, p_sgen, cls, load_prof, pv_prof, base_mva) -> tuple:
    NB = p_load.shape[0]
    C, T = load_prof.shape
    P = torch.empty((T, NB), device=p_load.device, dtype=p_load.dtype)
    Q = torch.empty((T, NB), device=p_load.device, dtype=p_load.dtype)
    BB = 512
    grid = (triton.cdiv(NB, BB),)
    for t in range(T):
        _sbus_profile[grid](p_load, q_load, p_sgen, cls, load_prof, pv_prof, P, Q, t, T, NB,
                            1.0 / base_mva, C=C, BB=BB)
    return P, Q
