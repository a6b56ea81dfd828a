"""PLM reconstruction along x2 with the van Leer limiter (PLUTO plm_states), face states vm / vp."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _plm_x2_vanleer(v, vm, vp, NK, J, I, BJ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    jj = tl.arange(0, BJ)
    jmask = jj < J
    for u in range(pid, NK * I, nprog):
        # unit u = (variable * K + k, i): one x2 pencil, the sweep direction, as in the C loop nest
        nk = u // I
        i = u % I
        src = v + nk * (J + 2) * I + i
        dst = nk * J * I + jj * I + i
        m = tl.load(src + jj * I, mask=jmask, other=0.0)
        c = tl.load(src + (jj + 1) * I, mask=jmask, other=0.0)
        p = tl.load(src + (jj + 2) * I, mask=jmask, other=0.0)
        dp = p - c
        dm = c - m
        prod = dp * dm
        dv = tl.where(prod > 0.0, 2.0 * prod / (dp + dm), 0.0)
        tl.store(vm + dst, c - 0.5 * dv, mask=jmask)
        tl.store(vp + dst, c + 0.5 * dv, mask=jmask)


def run(v: torch.Tensor) -> tuple:
    nvar, K, J2, I = v.shape
    J = J2 - 2
    vm = torch.empty((nvar, K, J, I), device=v.device, dtype=v.dtype)
    vp = torch.empty((nvar, K, J, I), device=v.device, dtype=v.dtype)
    BJ = triton.next_power_of_2(J)
    units = nvar * K * I
    grid = (min(_VECTOR_CORES, units),)
    _plm_x2_vanleer[grid](v, vm, vp, nvar * K, J, I, BJ=BJ)
    return vm, vp
