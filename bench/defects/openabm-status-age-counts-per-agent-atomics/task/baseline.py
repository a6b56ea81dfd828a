"""OpenABM-Covid19 daily tallies: individuals per (status, age group) and today's infections per age group."""
import torch
import triton
import triton.language as tl

N_STATUS = 11
N_AGE = 9
BLOCK = 4096


@triton.jit
def _tally_status_age(status, age_group, infection_day, counts, new_by_age, n, day,
                      N_AGE: tl.constexpr, N_BINS: tl.constexpr, BINS_POW2: tl.constexpr,
                      AGE_POW2: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    st = tl.load(status + offs, mask=ok, other=0).to(tl.int32)
    ag = tl.load(age_group + offs, mask=ok, other=0).to(tl.int32)
    inf_day = tl.load(infection_day + offs, mask=ok, other=-1)
    # out-of-range lanes go to the last (unused) bin of each histogram
    cell = tl.where(ok, st * N_AGE + ag, BINS_POW2 - 1)
    new_age = tl.where(ok & (inf_day == day), ag, AGE_POW2 - 1)
    hist = tl.histogram(cell, BINS_POW2)
    hist_new = tl.histogram(new_age, AGE_POW2)
    bins = tl.arange(0, BINS_POW2)
    ages = tl.arange(0, AGE_POW2)
    tl.atomic_add(counts + bins, hist, mask=bins < N_BINS)
    tl.atomic_add(new_by_age + ages, hist_new, mask=ages < N_AGE)


def run(status: torch.Tensor, age_group: torch.Tensor, infection_day: torch.Tensor, day: int) -> tuple:
    n = status.shape[0]
    counts = torch.zeros((N_STATUS, N_AGE), device=status.device, dtype=torch.int32)
    new_by_age = torch.zeros(N_AGE, device=status.device, dtype=torch.int32)
    grid = (triton.cdiv(n, BLOCK),)
    _tally_status_age[grid](status, age_group, infection_day, counts, new_by_age, n, day,
                            N_AGE=N_AGE, N_BINS=N_STATUS * N_AGE,
                            BINS_POW2=triton.next_power_of_2(N_STATUS * N_AGE + 1),
                            AGE_POW2=max(32, triton.next_power_of_2(N_AGE + 1)),
                            BLOCK=BLOCK, num_warps=4)
    return counts, new_by_age
