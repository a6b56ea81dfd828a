"""Arrhenius forward rate constants and reverse rates from ln Kc, for every cell and reaction."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _rate_constants(T, arrhenius, log_kc, reversible, kf, kr, CELLS, NR,
                    BC: tl.constexpr, BR: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rxn = tl.arange(0, BR)
    rmask = rxn < NR
    log_a = tl.load(arrhenius + rxn, mask=rmask, other=0.0)
    beta = tl.load(arrhenius + NR + rxn, mask=rmask, other=0.0)
    ta = tl.load(arrhenius + 2 * NR + rxn, mask=rmask, other=0.0)
    rev = tl.load(reversible + rxn, mask=rmask, other=0.0)
    for blk in range(pid, tl.cdiv(CELLS, BC), nprog):
        cell = blk * BC + tl.arange(0, BC)
        cmask = cell < CELLS
        mask = cmask[:, None] & rmask[None, :]
        t = tl.load(T + cell, mask=cmask, other=1000.0)
        log_t = tl.log(t)
        inv_t = 1.0 / t
        ln_kf = log_a[None, :] + beta[None, :] * log_t[:, None] - ta[None, :] * inv_t[:, None]
        offs = cell[:, None] * NR + rxn[None, :]
        lkc = tl.load(log_kc + offs, mask=mask, other=0.0)
        tl.store(kf + offs, tl.exp(ln_kf), mask=mask)
        tl.store(kr + offs, rev[None, :] * tl.exp(ln_kf - lkc), mask=mask)


def run(T: torch.Tensor, arrhenius: torch.Tensor, log_kc: torch.Tensor,
        reversible: torch.Tensor) -> tuple:
    cells, nr = log_kc.shape
    kf = torch.empty((cells, nr), device=T.device, dtype=T.dtype)
    kr = torch.empty((cells, nr), device=T.device, dtype=T.dtype)
    BR = triton.next_power_of_2(nr)
    BC = max(1, 4096 // BR)
    grid = (min(_VECTOR_CORES, triton.cdiv(cells, BC)),)
    _rate_constants[grid](T, arrhenius, log_kc, reversible, kf, kr, cells, nr, BC=BC, BR=BR)
    return kf, kr
