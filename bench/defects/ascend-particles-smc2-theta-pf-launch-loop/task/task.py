"""One SMC^2 time step on the stochastic-volatility model (particles' SMC2.logG with a Bootstrap PF per theta).

SMC^2 (Chopin, Jacob & Papaspiliopoulos 2013; `particles.smc_samplers.SMC2`) carries n_theta parameter
particles theta_m = (mu_m, rho_m, sigma_m), each with its own bootstrap particle filter of nx state
particles on the StochVol model of `particles.state_space_models`:
    X_t = mu + rho * (X_{t-1} - mu) + sigma * U_t,   U_t ~ N(0, 1)
    Y_t | X_t = x ~ N(0, exp(x))
At step t every filter moves its (already resampled, equally weighted) particles xp through the transition
with the standard-normal draws eps, weights them by the observation density of y_t (shared by all
filters), and reports the log-likelihood increment log p(y_t | y_{0:t-1}, theta_m) = log-mean-exp of its
log-weights, which SMC^2 adds to the theta-particle's log-posterior. Returns
(x [n_theta, nx] fp32, log-weights lw [n_theta, nx] fp32, lpyt [n_theta] fp32).
"""
import math

import torch

META = {
    "name": "smc2_sv_bootstrap_step",
    "level": 2,
    "category": "sequential-monte-carlo",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"n_theta": 3, "nx": 64},
        "ragged": {"n_theta": 5, "nx": 100},
        "large": {"n_theta": 1000, "nx": 1024},
    },
    "baseline_notes": "One launch for all theta-particles: min(40, blocks) programs (the A2's vector cores) "
                      "loop over blocks of 4 filters x the whole particle row (BX = next_power_of_2(nx)); "
                      "transition, Gaussian log-density of y_t, row max / exp-sum along the contiguous axis "
                      "for the log-mean-exp; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """xp [n_theta, nx] resampled states, eps [n_theta, nx] N(0,1) draws, mu/rho/sigma [n_theta], y_t (float)."""
    s = META["sizes"][size]
    nt, nx = s["n_theta"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    mu = -1.02 + 0.5 * torch.randn(nt, generator=g)
    rho = 0.85 + 0.14 * torch.rand(nt, generator=g)
    sigma = 0.1 + 0.3 * torch.rand(nt, generator=g)
    sig0 = sigma / torch.sqrt(1.0 - rho * rho)
    xp = mu[:, None] + sig0[:, None] * torch.randn(nt, nx, generator=g)
    eps = torch.randn(nt, nx, generator=g)
    y = float(0.9 * torch.randn((), generator=g))
    return (xp.to(device=device, dtype=dt), eps.to(device=device, dtype=dt), mu.to(device=device, dtype=dt),
            rho.to(device=device, dtype=dt), sigma.to(device=device, dtype=dt), y)


def reference(xp: torch.Tensor, eps: torch.Tensor, mu: torch.Tensor, rho: torch.Tensor,
              sigma: torch.Tensor, y: float) -> tuple:
    m, r, s = mu.double()[:, None], rho.double()[:, None], sigma.double()[:, None]
    x = m + r * (xp.double() - m) + s * eps.double()
    lw = -0.5 * math.log(2.0 * math.pi) - 0.5 * x - 0.5 * y * y * torch.exp(-x)
    lpyt = torch.logsumexp(lw, dim=1) - math.log(xp.shape[1])
    return x.to(xp.dtype), lw.to(xp.dtype), lpyt.to(xp.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["n_theta"] * s["nx"]
    return {"bytes": 16 * n + 16 * s["n_theta"], "flops": 14 * n}
