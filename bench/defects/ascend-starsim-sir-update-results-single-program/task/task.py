"""Per-step result tallies of an agent-based SIR disease (Starsim ss.SIR update_results).

Starsim keeps each agent's disease state in boolean arrays (one byte per agent) and the time index of
infection in a float array (Starsim's NaN for "never infected" is -1 here, so the inputs compare equal
to themselves). After every time step ti the disease records

    n_alive        = count(alive)
    n_susceptible  = count(susceptible & alive)
    n_infected     = count(infected & alive)
    n_recovered    = count(recovered & alive)
    new_infections = count(ti_infected == ti)

(prevalence = n_infected / n_alive follows on the host). Returns the five counts as int32 [5].
"""
import torch

META = {
    "name": "starsim_sir_update_results",
    "level": 1,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 6000},
        "ragged": {"N": 7777},
        "large": {"N": 30_000_000},
    },
    "baseline_notes": "40 programs (the A2's vector cores) stride over blocks of 4096 agents, accumulate the "
                      "five counts of their blocks in scalars and add them into the zeroed int32 output with "
                      "five scalar atomics per program (200 atomics in all); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """alive, susceptible, infected, recovered uint8 [N] (0/1), ti_infected fp32 [N] (-1 = never), ti (int)."""
    n = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ti = 120
    alive = torch.rand(n, generator=g) < 0.985
    u = torch.rand(n, generator=g)
    susceptible = u < 0.62
    infected = (u >= 0.62) & (u < 0.70)
    recovered = u >= 0.70
    ti_infected = torch.randint(0, ti + 1, (n,), generator=g).to(dt)
    ti_infected[infected] = torch.randint(ti - 12, ti + 1, (int(infected.sum()),), generator=g).to(dt)
    ti_infected[susceptible] = -1.0
    as_u8 = lambda b: b.to(torch.uint8).to(device)
    return (as_u8(alive), as_u8(susceptible), as_u8(infected), as_u8(recovered),
            ti_infected.to(device), ti)


def reference(alive, susceptible, infected, recovered, ti_infected, ti) -> torch.Tensor:
    a = alive.bool()
    counts = [a.sum(), (susceptible.bool() & a).sum(), (infected.bool() & a).sum(),
              (recovered.bool() & a).sum(), (ti_infected == ti).sum()]
    return torch.stack(counts).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 8 * n + 20, "flops": 10 * n}
