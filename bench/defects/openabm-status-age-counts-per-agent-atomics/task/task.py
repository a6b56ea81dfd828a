"""Daily status-by-age tallies of an OpenABM-Covid19 population.

Every simulated day OpenABM-Covid19 reports how many individuals are currently in each disease
status (SUSCEPTIBLE, PRESYMPTOMATIC, PRESYMPTOMATIC_MILD, ASYMPTOMATIC, SYMPTOMATIC, SYMPTOMATIC_MILD,
HOSPITALISED, CRITICAL, HOSPITALISED_RECOVERING, RECOVERED, DEATH: 11 statuses) in each of its
9 ten-year age groups (0-9 ... 80+), and how many were infected today, by age group. On the GPU the
population is struct-of-arrays: status int8 [N], age_group int8 [N], infection_day int32 [N]
(-1 for never infected). Returns (counts int32 [11, 9], new_by_age int32 [9]).
"""
import torch

N_STATUS = 11
N_AGE = 9
# mid-epidemic status mix (SUSCEPTIBLE ... DEATH) and the UK age pyramid of the 9 groups
STATUS_MIX = [0.60, 0.012, 0.008, 0.030, 0.018, 0.022, 0.004, 0.001, 0.002, 0.300, 0.003]
AGE_MIX = [0.12, 0.115, 0.13, 0.135, 0.13, 0.135, 0.11, 0.08, 0.045]

META = {
    "name": "status_age_counts",
    "level": 1,
    "category": "histogram",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 6000, "day": 5},
        "ragged": {"N": 9001, "day": 17},
        "large": {"N": 10_000_000, "day": 60},
    },
    "baseline_notes": "One program per 4096 individuals (4 warps): bin = status * 9 + age_group, a 128-bin "
                      "tl.histogram of the tile plus a 16-bin histogram of today's infections by age, then one "
                      "masked vector atomic_add of the per-program histograms into the int32 outputs; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """status int8 [N], age_group int8 [N], infection_day int32 [N] (-1 = never infected), day (int)."""
    s = META["sizes"][size]
    n, day = s["N"], s["day"]
    g = torch.Generator().manual_seed(seed)
    status = torch.multinomial(torch.tensor(STATUS_MIX), n, replacement=True, generator=g)
    age = torch.multinomial(torch.tensor(AGE_MIX), n, replacement=True, generator=g)
    # infected individuals caught the virus between 0 and ~3 weeks ago; the presymptomatic ones mostly today
    ago = torch.randint(0, 22, (n,), generator=g)
    recent = torch.randint(0, 3, (n,), generator=g)
    ago = torch.where((status == 1) | (status == 2) | (status == 3), recent, ago)
    infection_day = torch.where(status == 0, torch.full_like(ago, -1), (day - ago).clamp(min=0))
    return (status.to(torch.int8).to(device), age.to(torch.int8).to(device),
            infection_day.to(torch.int32).to(device), day)


def reference(status: torch.Tensor, age_group: torch.Tensor, infection_day: torch.Tensor, day: int) -> tuple:
    s, a = status.long(), age_group.long()
    counts = torch.bincount(s * N_AGE + a, minlength=N_STATUS * N_AGE).view(N_STATUS, N_AGE)
    new_by_age = torch.bincount(a[infection_day == day], minlength=N_AGE)
    return counts.to(torch.int32), new_by_age.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 6 * n + 4 * (N_STATUS * N_AGE + N_AGE), "flops": 3 * n}
