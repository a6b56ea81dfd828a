"""PLM reconstruction along x2 with the van Leer limiter (PLUTO plm_states), face states vm / vp."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _plm_x2_vanleer(v, vm, vp, NK, J, I, BJ: tl.constexpr, BI: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_jb = tl.cdiv(J, BJ)
    ii = tl.arange(0, BI)
    imask = ii < I
    for u in range(pid, NK * n_jb, nprog):
        # unit u = (variable * K + k, block of BJ x2 rows); the tile runs along i, the contiguous axis
        nk = u // n_jb
        jb = u % n_jb
        jj = jb * BJ + tl.arange(0, BJ)
        mask = (jj < J)[:, None] & imask[None, :]
        src = v + nk * (J + 2) * I + ii[None, :]
        dst = nk * J * I + jj[:, None] * I + ii[None, :]
        m = tl.load(src + jj[:, None] * I, mask=mask, other=0.0)
        c = tl.load(src + (jj[:, None] + 1) * I, mask=mask, other=0.0)
        p = tl.load(src + (jj[:, None] + 2) * I, mask=mask, other=0.0)
        dp = p - c
        dm = c - m
        prod = dp * dm
        dv = tl.where(prod > 0.0, 2.0 * prod / (dp + dm), 0.0)
        tl.store(vm + dst, c - 0.5 * dv, mask=mask)
        tl.store(vp + dst, c + 0.5 * dv, mask=mask)


def run(v: torch.Tensor) -> tuple:
    nvar, K, J2, I = v.shape
    J = J2 - 2
    vm = torch.empty((nvar, K, J, I), device=v.device, dtype=v.dtype)
    vp = torch.empty((nvar, K, J, I), device=v.device, dtype=v.dtype)
    BI = triton.next_power_of_2(I)
    BJ = max(1, 2048 // BI)
    units = nvar * K * triton.cdiv(J, BJ)
    grid = (min(_VECTOR_CORES, units),)
    _plm_x2_vanleer[grid](v, vm, vp, nvar * K, J, I, BJ=BJ, BI=BI)
    return vm, vp
