"""Starsim SIR update_results: n_alive, n_susceptible, n_infected, n_recovered, new_infections for one step."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sir_results(alive, susceptible, infected, recovered, ti_infected, counts, N, ti,
                 BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n_alive = tl.zeros((), dtype=tl.int32)
    n_sus = tl.zeros((), dtype=tl.int32)
    n_inf = tl.zeros((), dtype=tl.int32)
    n_rec = tl.zeros((), dtype=tl.int32)
    n_new = tl.zeros((), dtype=tl.int32)
    for start in range(pid * BLOCK, N, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < N
        a = tl.load(alive + offs, mask=mask, other=0).to(tl.int32)
        s = tl.load(susceptible + offs, mask=mask, other=0).to(tl.int32)
        i = tl.load(infected + offs, mask=mask, other=0).to(tl.int32)
        r = tl.load(recovered + offs, mask=mask, other=0).to(tl.int32)
        t = tl.load(ti_infected + offs, mask=mask, other=-1.0)
        n_alive += tl.sum(a, axis=0)
        n_sus += tl.sum(s * a, axis=0)
        n_inf += tl.sum(i * a, axis=0)
        n_rec += tl.sum(r * a, axis=0)
        n_new += tl.sum((t == ti).to(tl.int32), axis=0)
    tl.atomic_add(counts + 0, n_alive)
    tl.atomic_add(counts + 1, n_sus)
    tl.atomic_add(counts + 2, n_inf)
    tl.atomic_add(counts + 3, n_rec)
    tl.atomic_add(counts + 4, n_new)


def run(alive, susceptible, infected, recovered, ti_infected, ti) -> torch.Tensor:
    n = alive.shape[0]
    counts = torch.zeros(5, device=alive.device, dtype=torch.int32)
    BLOCK = 4096
    grid = (min(_VECTOR_CORES, triton.cdiv(n, BLOCK)),)
    _sir_results[grid](alive, susceptible, infected, recovered, ti_infected, counts, n, float(ti),
                       BLOCK=BLOCK)
    return counts
