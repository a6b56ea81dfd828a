"""Covasim infection step: age-binned susceptibility, infection draw and symptomatic branch per agent."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _infect(age, susceptible, sus_imm, foi, u_inf, u_symp, age_cutoffs, sus_ors, symp_probs,
            p_inf, outcome, n, N_BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    a = tl.load(age + offs, mask=ok, other=-1.0)
    # np.digitize(age, cutoffs) - 1: the last cutoff at or below the age picks the bin's table entries
    sus_or = tl.zeros([BLOCK], dtype=tl.float32)
    p_symp = tl.zeros([BLOCK], dtype=tl.float32)
    for k in tl.static_range(N_BINS):
        above = a >= tl.load(age_cutoffs + k)
        sus_or = tl.where(above, tl.load(sus_ors + k), sus_or)
        p_symp = tl.where(above, tl.load(symp_probs + k), p_symp)
    s = tl.load(susceptible + offs, mask=ok, other=0)
    imm = tl.load(sus_imm + offs, mask=ok, other=0.0)
    lam = tl.load(foi + offs, mask=ok, other=0.0)
    ui = tl.load(u_inf + offs, mask=ok, other=1.0)
    us = tl.load(u_symp + offs, mask=ok, other=1.0)
    rate = sus_or * (1.0 - imm) * lam
    p = tl.where(s != 0, 1.0 - tl.exp(-rate), 0.0)
    infected = ui < p
    out = tl.where(infected, tl.where(us < p_symp, 2, 1), 0).to(tl.int8)
    tl.store(p_inf + offs, p, mask=ok)
    tl.store(outcome + offs, out, mask=ok)


def run(age, susceptible, sus_imm, foi, u_inf, u_symp, age_cutoffs, sus_ors, symp_probs) -> tuple:
    n = age.shape[0]
    n_bins = age_cutoffs.shape[0]
    p_inf = torch.empty_like(age)
    outcome = torch.empty(n, device=age.device, dtype=torch.int8)
    grid = (triton.cdiv(n, BLOCK),)
    _infect[grid](age, susceptible, sus_imm, foi, u_inf, u_symp, age_cutoffs, sus_ors, symp_probs,
                  p_inf, outcome, n, N_BINS=n_bins, BLOCK=BLOCK, num_warps=4)
    return p_inf, outcome
