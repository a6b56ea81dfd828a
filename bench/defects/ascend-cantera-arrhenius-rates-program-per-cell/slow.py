"""Arrhenius forward rate constants and reverse rates from ln Kc, for every cell and reaction."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rate_constants(T, arrhenius, log_kc, reversible, kf, kr, NR,
                    BR: tl.constexpr):
    cell = tl.program_id(0)
    rxn = tl.arange(0, BR)
    rmask = rxn < NR
    t = tl.load(T + cell)
    log_t = tl.log(t)
    inv_t = 1.0 / t
    log_a = tl.load(arrhenius + rxn, mask=rmask, other=0.0)
    beta = tl.load(arrhenius + NR + rxn, mask=rmask, other=0.0)
    ta = tl.load(arrhenius + 2 * NR + rxn, mask=rmask, other=0.0)
    rev = tl.load(reversible + rxn, mask=rmask, other=0.0)
    ln_kf = log_a + beta * log_t - ta * inv_t
    lkc = tl.load(log_kc + cell * NR + rxn, mask=rmask, other=0.0)
    tl.store(kf + cell * NR + rxn, tl.exp(ln_kf), mask=rmask)
    tl.store(kr + cell * NR + rxn, rev * tl.exp(ln_kf - lkc), mask=rmask)


def run(T: torch.Tensor, arrhenius: torch.Tensor, log_kc: torch.Tensor,
        reversible: torch.Tensor) -> tuple:
    cells, nr = log_kc.shape
    kf = torch.empty((cells, nr), device=T.device, dtype=T.dtype)
    kr = torch.empty((cells, nr), device=T.device, dtype=T.dtype)
    BR = triton.next_power_of_2(nr)
    _rate_constants[(cells,)](T, arrhenius, log_kc, reversible, kf, kr, nr, BR=BR)
    return kf, kr
