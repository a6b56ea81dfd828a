"""OpenABM-Covid19 household transmission: one day's hazard accumulation inside every household.

OpenABM-Covid19 (Hinch et al. 2021) gives each susceptible individual a remaining hazard drawn
Exp(1) when they become susceptible; every interaction with an infectious person subtracts
infectiousness x susceptibility from it, and the person is infected once it drops below zero
(transmit_virus_by_type). On the household network everybody meets every other member every day,
so with members laid out in household slots the day's household update is
    hazard'[h, i] = hazard[h, i] - beta_hh * s[h, i] * (sum_k t[h, k] - t[h, i])
where t is the member's infectiousness today (the infectious curve at their time since infection,
already scaled by the infectious rate; 0 when not infectious), s their age-adjusted susceptibility
(0 when not susceptible) and beta_hh the household network's relative transmission. Households
(OpenABM: 1-6 people) are padded to 8 slots; empty slots carry t = s = hazard = 0.
Inputs: hazard, t, s [H, 8] fp32, beta_hh (float). Output: hazard' [H, 8] fp32.
"""
import torch

META = {
    "name": "openabm_household_hazard",
    "level": 1,
    "category": "epidemiology",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 100},
        "ragged": {"H": 333},
        "large": {"H": 4_194_304},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 256 households: the [256, 8] "
                      "hazard, infectiousness and susceptibility tiles (8 KiB each) are loaded contiguously, "
                      "the household pressure is a row sum along the contiguous slot axis, and hazard' is "
                      "stored as one [256, 8] tile; no autotune.",
    "deterministic": True,
}
SLOTS = 8
# ONS-style household size distribution used by OpenABM's UK baseline (sizes 1..6)
_SIZE_P = [0.29, 0.35, 0.15, 0.13, 0.05, 0.03]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """hazard, t, s [H, 8] (zero in empty slots) and beta_hh."""
    n_hh = META["sizes"][size]["H"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sizes = torch.multinomial(torch.tensor(_SIZE_P), n_hh, replacement=True, generator=g) + 1
    occupied = torch.arange(SLOTS)[None, :] < sizes[:, None]
    infectious = occupied & (torch.rand(n_hh, SLOTS, generator=g) < 0.08)
    susceptible = occupied & ~infectious & (torch.rand(n_hh, SLOTS, generator=g) < 0.85)
    t = torch.where(infectious, 0.02 + 0.4 * torch.rand(n_hh, SLOTS, generator=g), torch.zeros(()))
    s = torch.where(susceptible, 0.7 + 0.6 * torch.rand(n_hh, SLOTS, generator=g), torch.zeros(()))
    e1 = -torch.log1p(-torch.rand(n_hh, SLOTS, generator=g).clamp(max=0.999999))
    hazard = torch.where(susceptible, e1, torch.zeros(()))
    return hazard.to(dt).to(device), t.to(dt).to(device), s.to(dt).to(device), 2.0


def reference(hazard: torch.Tensor, t: torch.Tensor, s: torch.Tensor, beta_hh: float) -> torch.Tensor:
    td = t.double()
    pressure = td.sum(dim=1, keepdim=True) - td
    return (hazard.double() - beta_hh * s.double() * pressure).to(hazard.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n_hh = META["sizes"][size]["H"]
    return {"bytes": 16 * SLOTS * n_hh, "flops": 5 * SLOTS * n_hh}
