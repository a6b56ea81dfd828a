"""Covasim prognoses: age bin, four conditional probabilities from the table, four Bernoulli stages."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _prognoses_kernel(age, symp_imm, sev_imm, u, cutoffs, probs, rel, outcome, N, n_bins,
                      stride_u, stride_p, BLOCK: tl.constexpr, NB: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    k = tl.arange(0, NB)
    kmask = k < n_bins
    lo = tl.load(cutoffs + k, mask=kmask, other=float("inf"))
    hi = tl.load(cutoffs + k + 1, mask=k + 1 < n_bins, other=float("inf"))
    # the whole (tiny) prognosis table, one contiguous 16-lane row per stage, kept on chip
    tab_s = tl.load(probs + k, mask=kmask, other=0.0)
    tab_v = tl.load(probs + stride_p + k, mask=kmask, other=0.0)
    tab_c = tl.load(probs + 2 * stride_p + k, mask=kmask, other=0.0)
    tab_d = tl.load(probs + 3 * stride_p + k, mask=kmask, other=0.0)
    rel_symp = tl.load(rel)
    rel_sev = tl.load(rel + 1)
    rel_crit = tl.load(rel + 2)
    rel_death = tl.load(rel + 3)
    for blk in range(pid, tl.cdiv(N, BLOCK), nprog):
        offs = blk * BLOCK + tl.arange(0, BLOCK)
        m = offs < N
        a = tl.load(age + offs, mask=m, other=0.0)
        # np.digitize(age, cutoffs) - 1 as a one-hot over the bins: cutoffs[k] <= age < cutoffs[k + 1]
        onehot = (a[:, None] >= lo[None, :]) & (a[:, None] < hi[None, :])
        ps = tl.sum(tl.where(onehot, tab_s[None, :], 0.0), axis=1)
        pv = tl.sum(tl.where(onehot, tab_v[None, :], 0.0), axis=1)
        pc = tl.sum(tl.where(onehot, tab_c[None, :], 0.0), axis=1)
        pd = tl.sum(tl.where(onehot, tab_d[None, :], 0.0), axis=1)
        si = tl.load(symp_imm + offs, mask=m, other=0.0)
        vi = tl.load(sev_imm + offs, mask=m, other=0.0)
        u0 = tl.load(u + offs, mask=m, other=1.0)
        u1 = tl.load(u + stride_u + offs, mask=m, other=1.0)
        u2 = tl.load(u + 2 * stride_u + offs, mask=m, other=1.0)
        u3 = tl.load(u + 3 * stride_u + offs, mask=m, other=1.0)
        symp = u0 < (rel_symp * ps) * (1.0 - si)
        sev = symp & (u1 < (rel_sev * pv) * (1.0 - vi))
        crit = sev & (u2 < rel_crit * pc)
        dead = crit & (u3 < rel_death * pd)
        code = symp.to(tl.int8) + sev.to(tl.int8) + crit.to(tl.int8) + dead.to(tl.int8)
        tl.store(outcome + offs, code, mask=m)


def run(age, symp_imm, sev_imm, u, cutoffs, probs, rel) -> torch.Tensor:
    N = age.shape[0]
    n_bins = cutoffs.shape[0]
    outcome = torch.empty(N, device=age.device, dtype=torch.int8)
    BLOCK = 512
    grid = (min(_VECTOR_CORES, triton.cdiv(N, BLOCK)),)
    _prognoses_kernel[grid](age, symp_imm, sev_imm, u, cutoffs, probs, rel, outcome, N, n_bins,
                            u.stride(0), probs.stride(0), BLOCK=BLOCK, NB=triton.next_power_of_2(n_bins))
    return outcome
