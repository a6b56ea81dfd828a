"""Per-time-step progression sweep of an individual-based influenza/COVID model (CovidSim IncubRecoverySweep).

CovidSim keeps one packed PERSON record per individual. This port keeps the fields the sweep needs in
a packed fp32 table person[N, 8] (one 32-byte record per person, times in model time steps):

    0 inf            state code: 0 susceptible, 1 latent, 2 infectious, 4 recovered, 5 dead
    1 infection_time step at which the person was infected
    2 latent_time    step at which the person becomes infectious (end of the latent period)
    3 recovery_time  step at which the infectious period ends (recovery or death)
    4 infectiousness relative infectiousness drawn at infection (gamma distributed)
    5 susc           relative susceptibility
    6 to_die         1.0 when the infection was drawn to be fatal
    7 age            years

At step ts (time step TS days) one transition is applied per person:
    latent and ts >= latent_time        -> infectious
    infectious and ts >= recovery_time  -> dead if to_die else recovered
and the sweep writes the arrays the infection sweeps read next:
    state[i]      int32, the new state code
    inf_now[i]    infectiousness * profile((ts - latent_time) * TS) when infectious, else 0,
                  profile(tau) = (tau / TAU_PEAK) * exp(1 - tau / TAU_PEAK) (peak 1 at TAU_PEAK days)
    susc_now[i]   susc when susceptible, else 0
"""
import torch

TS = 0.25        # CovidSim's default time step, days
TAU_PEAK = 2.0   # days from infectiousness onset to peak infectiousness

META = {
    "name": "covidsim_incub_recovery_sweep",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 3000},
        "ragged": {"N": 4097},
        "large": {"N": 66_000_000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 1024 people; each block is "
                      "one contiguous [1024, 8] record tile (32 KiB), the six fields the sweep needs are "
                      "taken out of the tile on chip (one-hot multiply + 8-wide row sum), then the "
                      "transitions and the three SoA outputs are stored contiguously; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """person [N, 8] fp32 records, ts (float: the current time step)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ts = 240.0  # day 60 of the epidemic
    infected = torch.rand(n, generator=g) < 0.45
    infection_time = ts - torch.randint(0, 100, (n,), generator=g).float()
    latent_time = infection_time + torch.randint(8, 30, (n,), generator=g).float()
    recovery_time = latent_time + torch.randint(12, 60, (n,), generator=g).float()
    to_die = (torch.rand(n, generator=g) < 0.01).float()
    # state as of the previous step: transitions are due exactly where ts reaches latent_time / recovery_time
    prev = ts - 1.0
    state = torch.where(prev < latent_time, 1.0, torch.where(prev < recovery_time, 2.0, 4.0 + to_die))
    state = torch.where(infected, state, torch.zeros(n))
    zero = torch.zeros(n)
    infection_time, latent_time, recovery_time = (torch.where(infected, t, zero)
                                                  for t in (infection_time, latent_time, recovery_time))
    infectiousness = (-torch.log(torch.rand(n, 4, generator=g))).sum(1) / 4.0  # gamma(4, 1/4), mean 1
    infectiousness = torch.where(infected, infectiousness, zero)
    susc = 0.5 + torch.rand(n, generator=g)
    age = torch.randint(0, 90, (n,), generator=g).float()
    person = torch.stack([state, infection_time, latent_time, recovery_time, infectiousness, susc, to_die, age], 1)
    return person.to(dt).contiguous().to(device), ts


def reference(person: torch.Tensor, ts: float) -> tuple:
    p = person.double()
    st, lat, rec, infn, susc, die = p[:, 0], p[:, 2], p[:, 3], p[:, 4], p[:, 5], p[:, 6]
    new = st.clone()
    new = torch.where((st == 1) & (ts >= lat), torch.full_like(st, 2.0), new)
    new = torch.where((st == 2) & (ts >= rec), torch.where(die > 0.5, 5.0, 4.0).to(st), new)
    tau = (ts - lat) * TS / TAU_PEAK
    inf_now = torch.where(new == 2, infn * tau * torch.exp(1.0 - tau), torch.zeros_like(st))
    susc_now = torch.where(new == 0, susc, torch.zeros_like(st))
    return new.to(torch.int32), inf_now.to(person.dtype), susc_now.to(person.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 32 * n + 12 * n, "flops": 20 * n}
