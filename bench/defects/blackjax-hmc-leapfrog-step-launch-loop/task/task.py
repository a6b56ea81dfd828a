"""One HMC trajectory for many chains at once (BlackJAX / NumPyro vectorised HMC, velocity Verlet).

Every chain c carries a position q[c] and a momentum p[c] in D dimensions. The target is a
diagonal ("ill-conditioned") Gaussian with mean mu and precisions prec (potential energy
U(q) = 0.5 * sum_d prec_d (q_d - mu_d)^2, gradient prec * (q - mu)); the kinetic energy uses the
diagonal inverse mass matrix inv_mass from window adaptation, K(p) = 0.5 * sum_d inv_mass_d p_d^2.
n_steps leapfrog steps of size step_size are taken (BlackJAX's velocity_verlet):

    p <- p - eps/2 * grad U(q);  q <- q + eps * inv_mass * p;  p <- p - eps/2 * grad U(q)

Returns (q_new [C, D] fp32, p_new [C, D] fp32, energy_new [C] fp32 = U(q_new) + K(p_new)), the
proposal and the Hamiltonian the Metropolis step compares with the starting energy.
"""
import torch

META = {
    "name": "hmc_leapfrog_trajectory",
    "level": 2,
    "category": "mcmc",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"C": 6, "D": 40, "n_steps": 5},
        "ragged": {"C": 5, "D": 77, "n_steps": 3},
        "large": {"C": 8192, "D": 1024, "n_steps": 32},
    },
    "baseline_notes": "One launch: each program holds 4 chains x the whole (power-of-two padded) dimension of "
                      "q and p in registers, runs all n_steps leapfrog steps in a loop, then writes q, p and "
                      "the per-chain energy (row reductions) once. 8 warps, no autotune.",
    "deterministic": True,
}
STEP_SIZE = 0.25


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Chains at stationarity: q [C, D], momenta p [C, D] ~ N(0, M), mu [D], prec [D], inv_mass [D],
    step size (float), number of leapfrog steps (int)."""
    s = META["sizes"][size]
    c, d, n_steps = s["C"], s["D"], s["n_steps"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    sigma = torch.logspace(-1.0, 1.0, d)                      # scales 0.1 .. 10 (condition number 1e4)
    sigma = sigma[torch.randperm(d, generator=g)]
    mu = 0.5 * torch.randn(d, generator=g)
    prec = 1.0 / sigma ** 2
    inv_mass = sigma ** 2 * torch.exp(0.1 * torch.randn(d, generator=g))   # adapted, slightly off
    q = mu + sigma * torch.randn(c, d, generator=g)
    p = torch.randn(c, d, generator=g) / inv_mass.sqrt()
    return (q.to(device=device, dtype=dt), p.to(device=device, dtype=dt), mu.to(device=device, dtype=dt),
            prec.to(device=device, dtype=dt), inv_mass.to(device=device, dtype=dt), STEP_SIZE, n_steps)


def reference(q, p, mu, prec, inv_mass, step_size: float, n_steps: int) -> tuple:
    x, r = q.double(), p.double()
    m, a, im = mu.double(), prec.double(), inv_mass.double()
    for _ in range(n_steps):
        r = r - 0.5 * step_size * a * (x - m)
        x = x + step_size * im * r
        r = r - 0.5 * step_size * a * (x - m)
    energy = 0.5 * (a * (x - m) ** 2).sum(1) + 0.5 * (im * r * r).sum(1)
    return x.to(q.dtype), r.to(q.dtype), energy.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["C"] * s["D"]
    return {"bytes": 16 * n + 12 * s["D"] + 4 * s["C"], "flops": 8 * n * s["n_steps"] + 6 * n}
