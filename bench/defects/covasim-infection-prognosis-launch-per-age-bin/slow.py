"""Covasim infection step: age-binned susceptibility, infection draw and symptomatic branch per agent."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _infect_age_bin(age, susceptible, sus_imm, foi, u_inf, u_symp, age_cutoffs, sus_ors, symp_probs,
                    p_inf, outcome, n, b, n_bins, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    lo = tl.load(age_cutoffs + b)
    hi = tl.load(age_cutoffs + b + 1, mask=b + 1 < n_bins, other=float("inf"))
    sus_or = tl.load(sus_ors + b)
    p_symp = tl.load(symp_probs + b)
    a = tl.load(age + offs, mask=ok, other=-1.0)
    mine = ok & (a >= lo) & (a < hi)
    s = tl.load(susceptible + offs, mask=mine, other=0)
    imm = tl.load(sus_imm + offs, mask=mine, other=0.0)
    lam = tl.load(foi + offs, mask=mine, other=0.0)
    ui = tl.load(u_inf + offs, mask=mine, other=1.0)
    us = tl.load(u_symp + offs, mask=mine, other=1.0)
    rate = sus_or * (1.0 - imm) * lam
    p = tl.where(s != 0, 1.0 - tl.exp(-rate), 0.0)
    infected = ui < p
    out = tl.where(infected, tl.where(us < p_symp, 2, 1), 0).to(tl.int8)
    tl.store(p_inf + offs, p, mask=mine)
    tl.store(outcome + offs, out, mask=mine)


def run(age, susceptible, sus_imm, foi, u_inf, u_symp, age_cutoffs, sus_ors, symp_probs) -> tuple:
    n = age.shape[0]
    n_bins = age_cutoffs.shape[0]
    p_inf = torch.empty_like(age)
    outcome = torch.empty(n, device=age.device, dtype=torch.int8)
    grid = (triton.cdiv(n, BLOCK),)
    for b in range(n_bins):
        _infect_age_bin[grid](age, susceptible, sus_imm, foi, u_inf, u_symp, age_cutoffs, sus_ors, symp_probs,
                              p_inf, outcome, n, b, n_bins, BLOCK=BLOCK, num_warps=4)
    return p_inf, outcome
