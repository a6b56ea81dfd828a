"""Covasim daily infection step with age-stratified susceptibility and the symptomatic branch of the prognoses.

Each agent i carries its age (years, fp32), a susceptible flag, its immunity against infection sus_imm_i
(Covasim 3's waning immunity, 0..1) and today's force of infection lambda_i (the hazard summed over its
household, school, work and community contacts with infectious agents). Covasim's prognoses table bins
ages at the cutoffs 0, 10, ..., 90 (lower limits; np.digitize(age, cutoffs) - 1) and gives per bin the
susceptibility odds ratio sus_OR and the probability symp_prob that an infection becomes symptomatic.
    p_i       = 1 - exp(-sus_OR[bin_i] * (1 - sus_imm_i) * lambda_i)   (0 if i is not susceptible)
    infected  = u_inf_i < p_i ;   symptomatic = infected and u_symp_i < symp_prob[bin_i]
with pre-drawn uniforms u_inf, u_symp. Returns (p fp32 [N], outcome int8 [N]: 0 not infected today,
1 infected with an asymptomatic course, 2 infected with a symptomatic course).
"""
import torch

# Covasim get_prognoses(by_age=True)
AGE_CUTOFFS = [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0]
SUS_ORS = [0.34, 0.67, 1.00, 1.00, 1.00, 1.00, 1.24, 1.47, 1.47, 1.47]
SYMP_PROBS = [0.50, 0.55, 0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.90]
# share of the population in 5-year brackets 0-4 ... 95-99 (a US-like pyramid)
AGE_PYRAMID = [6.0, 6.2, 6.5, 6.5, 6.7, 7.0, 6.9, 6.6, 6.1, 6.2, 6.3, 6.5, 6.1, 5.2, 4.1, 2.9, 1.9, 1.2, 0.6, 0.2]

META = {
    "name": "covasim_infection_prognosis",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 3000},
        "ragged": {"N": 4999},
        "large": {"N": 20_000_000},
    },
    "baseline_notes": "One launch, programs of 1024 agents (4 warps): the age bin's sus_OR and symp_prob are "
                      "selected in registers by comparing the age with the 10 cutoffs (static loop over scalar "
                      "table loads), then hazard -> probability -> two draws compared; one load of each per-agent "
                      "array and one store of each output; no autotune.",
    "deterministic": True,
}


def _bins(age: torch.Tensor, cutoffs: torch.Tensor) -> torch.Tensor:
    return torch.searchsorted(cutoffs.contiguous(), age.contiguous(), right=True) - 1


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """age, susceptible (int8), sus_imm, foi, u_inf, u_symp [N] and the tables age_cutoffs, sus_ors, symp_probs [10]."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    bracket = torch.multinomial(torch.tensor(AGE_PYRAMID), n, replacement=True, generator=g)
    age = (bracket.double() * 5.0 + torch.rand(n, generator=g, dtype=torch.float64) * 5.0).float()
    susceptible = (torch.rand(n, generator=g) < 0.7).to(torch.int8)
    prior = torch.rand(n, generator=g) < 0.25
    sus_imm = torch.where(prior, 0.3 + 0.6 * torch.rand(n, generator=g), torch.zeros(n))
    exposed = torch.rand(n, generator=g) < 0.35
    foi = torch.where(exposed, -0.08 * torch.log1p(-torch.rand(n, generator=g)), torch.zeros(n))
    u_inf = torch.rand(n, generator=g)
    u_symp = torch.rand(n, generator=g)
    cutoffs = torch.tensor(AGE_CUTOFFS)
    sus_ors = torch.tensor(SUS_ORS)
    symp_probs = torch.tensor(SYMP_PROBS)
    # keep every draw clear of its probability so that fp32 rounding cannot flip an outcome
    p = _probability(age, susceptible, sus_imm, foi, cutoffs, sus_ors)
    close = (u_inf.double() - p).abs() < 1e-5
    u_inf = torch.where(close, torch.where(p < 0.5, p + 2e-5, p - 2e-5).float(), u_inf)
    return tuple(x.to(device) for x in (age.to(dt), susceptible, sus_imm.to(dt), foi.to(dt), u_inf.to(dt),
                                         u_symp.to(dt), cutoffs.to(dt), sus_ors.to(dt), symp_probs.to(dt)))


def _probability(age, susceptible, sus_imm, foi, age_cutoffs, sus_ors) -> torch.Tensor:
    b = _bins(age, age_cutoffs)
    rate = sus_ors.double()[b] * (1.0 - sus_imm.double()) * foi.double()
    return torch.where(susceptible != 0, -torch.expm1(-rate), torch.zeros_like(rate))


def reference(age, susceptible, sus_imm, foi, u_inf, u_symp, age_cutoffs, sus_ors, symp_probs) -> tuple:
    p = _probability(age, susceptible, sus_imm, foi, age_cutoffs, sus_ors)
    b = _bins(age, age_cutoffs)
    infected = u_inf.double() < p
    symptomatic = u_symp < symp_probs[b]
    outcome = torch.where(infected, torch.where(symptomatic, 2, 1), 0).to(torch.int8)
    return p.to(age.dtype), outcome


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 26 * n, "flops": 30 * n}
