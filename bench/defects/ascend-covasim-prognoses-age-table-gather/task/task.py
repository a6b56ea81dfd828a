"""Covasim disease-course draw (People.infect / set_prognoses): age-binned prognoses and four Bernoulli stages.

Covasim (covasim/parameters.py get_prognoses, people.py) keeps a 10-row prognosis table by age decade
(age_cutoffs 0, 10, ..., 90; the bin is np.digitize(age, age_cutoffs) - 1) with the probability of
symptoms and, in relative_prognoses form, the conditional probabilities severe | symptomatic,
critical | severe and death | critical. When an agent is infected its course is drawn stage by stage:
    symp  = u0 < rel_symp   * symp_prob[bin]   * (1 - symp_imm)
    sev   = symp & (u1 < rel_severe * severe_prob[bin] * (1 - sev_imm))
    crit  = sev  & (u2 < rel_crit   * crit_prob[bin])
    dead  = crit & (u3 < rel_death  * death_prob[bin])
and the outcome code is symp + sev + crit + dead (0 asymptomatic, 1 mild, 2 severe, 3 critical, 4 dies).
symp_imm / sev_imm are the agents' immunity reductions (from neutralising antibodies), rel_* the
variant's multipliers, u the pre-drawn uniforms (Covasim's np.random.random per stage).
Inputs: age [N] fp32, symp_imm [N], sev_imm [N], u [4, N] fp32, age_cutoffs [10] fp32,
probs [4, 10] fp32, rel [4] fp32. Output: outcome [N] int8.
"""
import torch

META = {
    "name": "covasim_prognoses",
    "level": 1,
    "category": "epidemiology",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 1237},
        "large": {"N": 16_777_216},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 512 agents; the 10 cutoffs and "
                      "the four probability rows are loaded once per program as 16-lane vectors; each agent's "
                      "bin is a one-hot [512, 16] interval compare (cutoffs[k] <= age < cutoffs[k + 1]) and its "
                      "four probabilities are picked on chip with a select and row sum; one int8 store per block.",
    "deterministic": True,
}

# Covasim defaults (get_prognoses, version 3), absolute probabilities by age decade.
_CUTOFFS = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90]
_SYMP = [0.50, 0.55, 0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.90]
_SEVERE = [0.00050, 0.00165, 0.00720, 0.02080, 0.03430, 0.07650, 0.13280, 0.20655, 0.24570, 0.24570]
_CRIT = [0.00003, 0.00008, 0.00036, 0.00104, 0.00216, 0.00933, 0.03639, 0.08923, 0.17420, 0.17420]
_DEATH = [0.00002, 0.00002, 0.00010, 0.00032, 0.00098, 0.00265, 0.00766, 0.02439, 0.08292, 0.16190]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """age, symp_imm, sev_imm [N]; u [4, N]; age_cutoffs [10]; conditional probs [4, 10]; rel [4]."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    age = torch.rand(n, generator=g) * 100.0
    immune = torch.rand(n, generator=g) < 0.3
    symp_imm = torch.where(immune, 0.2 + 0.6 * torch.rand(n, generator=g), torch.zeros(n))
    sev_imm = torch.where(immune, 0.5 + 0.45 * torch.rand(n, generator=g), torch.zeros(n))
    u = torch.rand(4, n, generator=g)
    cutoffs = torch.tensor(_CUTOFFS, dtype=torch.float64)
    symp, sev, crit, death = (torch.tensor(v, dtype=torch.float64) for v in (_SYMP, _SEVERE, _CRIT, _DEATH))
    probs = torch.stack([symp, sev / symp, crit / sev, death / crit])   # relative_prognoses
    rel = torch.tensor([1.0, 1.64, 1.0, 1.0])                             # e.g. a delta-like severity multiplier
    return (age.to(dt).to(device), symp_imm.to(dt).to(device), sev_imm.to(dt).to(device),
            u.to(dt).to(device), cutoffs.to(dt).to(device), probs.to(dt).to(device), rel.to(dt).to(device))


def reference(age, symp_imm, sev_imm, u, cutoffs, probs, rel) -> torch.Tensor:
    # Same fp32 products in the same order as Covasim, so the Bernoulli decisions are exact.
    b = torch.bucketize(age, cutoffs, right=True) - 1
    p_symp = (rel[0] * probs[0][b]) * (1.0 - symp_imm)
    p_sev = (rel[1] * probs[1][b]) * (1.0 - sev_imm)
    p_crit = rel[2] * probs[2][b]
    p_death = rel[3] * probs[3][b]
    symp = u[0] < p_symp
    sev = symp & (u[1] < p_sev)
    crit = sev & (u[2] < p_crit)
    dead = crit & (u[3] < p_death)
    return (symp.to(torch.int8) + sev.to(torch.int8) + crit.to(torch.int8) + dead.to(torch.int8))


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 29 * n, "flops": 12 * n}
