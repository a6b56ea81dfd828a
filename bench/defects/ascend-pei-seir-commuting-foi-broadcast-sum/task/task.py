"""One day of a commuting-coupled metapopulation SEIR model over US counties, for a whole filter ensemble.

County-level COVID-19 models in the style of Pei, Kandula & Shaman (2020) couple the 3,142 US counties
through commuting and run the model as an ensemble (EAKF) of E parameter sets. Every county i and
ensemble member e carries S, E, I, R; the force of infection mixes the prevalence of the counties that
county i's residents meet:
    lambda[i, e] = beta[e] * sum_j mix[i, j] * I[j, e],   mix[i, j] = C[i, j] / N[j]
(C the row-stochastic commuting/contact matrix, N the resident populations; mix is built once per run).
The day step is the exponential-hazard (chain-binomial mean) update
    new_e = S (1 - exp(-lambda)),  new_i = E (1 - exp(-sigma)),  new_r = I (1 - exp(-gamma))
    S' = S - new_e,  E' = E + new_e - new_i,  I' = I + new_i - new_r,  R' = R + new_r.
Inputs: state [4, R, E] fp32 (S, E, I, R), mix [R, R] fp32, params [3, E] fp32 (beta, sigma, gamma).
Output: the next day's state [4, R, E] fp32.
"""
import math

import torch

META = {
    "name": "seir_metapop_commuting_step",
    "level": 2,
    "category": "epidemiology",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"R": 24, "E": 16},
        "ragged": {"R": 37, "E": 10},
        "large": {"R": 3142, "E": 256},
    },
    "baseline_notes": "min(20, row blocks) programs (the A2's AI cores: the matrix product runs on the cube) "
                      "loop over 64-county row blocks and, inside, over 128-member ensemble blocks; each output "
                      "tile accumulates acc += tl.dot(mix tile [64, 64], I tile [64, 128]) in fp32 over the "
                      "source counties, then applies the SEIR day update on the vector cores and stores the "
                      "four compartments; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """state [4, R, E] (persons), mix [R, R] = C / N[None, :], params [3, E] (beta, sigma, gamma per day)."""
    s = META["sizes"][size]
    n_reg, n_ens = s["R"], s["E"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pop = torch.exp(math.log(25_000.0) + 1.2 * torch.randn(n_reg, generator=g)).clamp(1_000.0, 5_000_000.0)
    # Gravity-style commuting: most contacts at home, the rest to nearby counties.
    xy = torch.rand(n_reg, 2, generator=g) * 40.0
    dist = torch.cdist(xy, xy)
    w = pop[None, :] * torch.exp(-dist / 1.5)
    w.fill_diagonal_(0.0)
    stay = 0.75 + 0.2 * torch.rand(n_reg, generator=g)
    c = (1.0 - stay)[:, None] * w / w.sum(1, keepdim=True).clamp(min=1e-30)
    c += torch.diag(stay)
    mix = c / pop[None, :]
    prev = 10 ** (-4.0 + 2.0 * torch.rand(n_reg, n_ens, generator=g))      # 1e-4 .. 1e-2 infectious
    inf = pop[:, None] * prev
    exp_ = inf * (0.5 + torch.rand(n_reg, n_ens, generator=g))
    rec = pop[:, None] * 0.1 * torch.rand(n_reg, n_ens, generator=g)
    sus = pop[:, None] - inf - exp_ - rec
    state = torch.stack([sus, exp_, inf, rec])
    beta = 0.25 + 0.5 * torch.rand(n_ens, generator=g)
    sigma = 1.0 / (3.0 + 3.0 * torch.rand(n_ens, generator=g))
    gamma = 1.0 / (3.0 + 4.0 * torch.rand(n_ens, generator=g))
    params = torch.stack([beta, sigma, gamma])
    return state.to(dt).to(device), mix.to(dt).to(device), params.to(dt).to(device)


def reference(state: torch.Tensor, mix: torch.Tensor, params: torch.Tensor) -> torch.Tensor:
    s, e, i, r = state.double()
    beta, sigma, gamma = params.double()
    lam = beta[None, :] * (mix.double() @ i)
    new_e = -s * torch.expm1(-lam)
    new_i = -e * torch.expm1(-sigma)[None, :]
    new_r = -i * torch.expm1(-gamma)[None, :]
    out = torch.stack([s - new_e, e + new_e - new_i, i + new_i - new_r, r + new_r])
    return out.to(state.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_reg, n_ens = s["R"], s["E"]
    return {"bytes": 4 * n_reg * n_reg + 32 * n_reg * n_ens + 12 * n_ens,
            "flops": 2 * n_reg * n_reg * n_ens + 20 * n_reg * n_ens}
