"""ORE exposure post-processing: EPE / ENE profiles per netting set, then CVA / DVA integration."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _exposure_profile(v, epe, ene, R, S, inv_s, BS: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for row in range(pid, R, nprog):
        acc_p = tl.zeros([BS], dtype=tl.float32)
        acc_n = tl.zeros([BS], dtype=tl.float32)
        for s0 in range(0, S, BS):
            cols = s0 + tl.arange(0, BS)
            x = tl.load(v + row * S + cols, mask=cols < S, other=0.0)
            acc_p += tl.maximum(x, 0.0)
            acc_n += tl.maximum(-x, 0.0)
        tl.store(epe + row, tl.sum(acc_p, axis=0) * inv_s)
        tl.store(ene + row, tl.sum(acc_n, axis=0) * inv_s)


@triton.jit
def _cva_integrate(epe, ene, surv_c, surv_b, cva, dva, lgd_c, lgd_b, T, BT: tl.constexpr):
    n = tl.program_id(0)
    ts = tl.arange(0, BT)
    m = ts < T
    e_p = tl.load(epe + n * T + ts, mask=m, other=0.0)
    e_n = tl.load(ene + n * T + ts, mask=m, other=0.0)
    dpd_c = tl.load(surv_c + ts, mask=m, other=0.0) - tl.load(surv_c + ts + 1, mask=m, other=0.0)
    dpd_b = tl.load(surv_b + ts, mask=m, other=0.0) - tl.load(surv_b + ts + 1, mask=m, other=0.0)
    tl.store(cva + n, lgd_c * tl.sum(e_p * dpd_c, axis=0))
    tl.store(dva + n, lgd_b * tl.sum(e_n * dpd_b, axis=0))


def run(v: torch.Tensor, surv_c: torch.Tensor, surv_b: torch.Tensor, lgd_c: float, lgd_b: float) -> tuple:
    N, T, S = v.shape
    epe = torch.empty((N, T), device=v.device, dtype=torch.float32)
    ene = torch.empty((N, T), device=v.device, dtype=torch.float32)
    cva = torch.empty(N, device=v.device, dtype=torch.float32)
    dva = torch.empty(N, device=v.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, N * T),)
    _exposure_profile[grid](v, epe, ene, N * T, S, 1.0 / S, BS=4096)
    _cva_integrate[(N,)](epe, ene, surv_c, surv_b, cva, dva, lgd_c, lgd_b, T,
                         BT=triton.next_power_of_2(T))
    return epe, ene, cva, dva
