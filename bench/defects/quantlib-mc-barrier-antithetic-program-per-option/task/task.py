"""Monte Carlo price of a book of discretely monitored down-and-out calls with antithetic variates
(QuantLib MCBarrierEngine with antitheticVariate = true and BiasedBarrierPathPricer).

Each option o has spot S, strike K, barrier B < S, volatility sigma, rate r, dividend yield q and expiry T,
monitored at n_steps equally spaced dates dt = T / n_steps. All options share the same standard normals
z [n_steps, n_half] (common random numbers, as generated once by the sequence generator). Under GBM, in log space,
    x+_{k+1} = x+_k + mu + s z_k,   x-_{k+1} = x-_k + mu - s z_k,   x_0 = ln S,
    mu = (r - q - sigma^2 / 2) dt,  s = sigma sqrt(dt),
a path is knocked out when x_k <= ln B at any monitoring date k = 1..n_steps, else it pays max(e^{x_n} - K, 0).
price_o = e^{-rT} / n_half * sum_paths (payoff(x+) + payoff(x-)) / 2. Returns price fp32 [n_opt].
The reference follows the kernel's fp32 operation order so that no path lands on the other side of the barrier.
"""
import math

import torch

META = {
    "name": "mc_barrier_antithetic_book",
    "level": 2,
    "category": "quantitative-finance",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"n_opt": 3, "n_steps": 8, "n_half": 300},
        "ragged": {"n_opt": 5, "n_steps": 13, "n_half": 2777},
        "large": {"n_opt": 64, "n_steps": 64, "n_half": 131072},
    },
    "baseline_notes": "Grid (options, path chunks of 2048 antithetic pairs): each program walks its chunk in blocks "
                      "of 1024 pairs, stepping both legs of every pair through the monitoring dates (one coalesced "
                      "load of z per step), and writes one partial payoff sum; a second one-program-per-option "
                      "kernel adds the partials in a fixed order and discounts. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Per-option spot, strike, barrier, vol, rate, dividend yield, expiry (fp32 [n_opt]) and z fp32 [n_steps, n_half]."""
    s = META["sizes"][size]
    n_opt, n_steps, n_half = s["n_opt"], s["n_steps"], s["n_half"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = lambda lo, hi: lo + (hi - lo) * torch.rand(n_opt, generator=g, dtype=torch.float64)
    spot = 100.0 * u(0.8, 1.2)
    strike = spot * u(0.9, 1.2)
    barrier = spot * u(0.7, 0.95)
    vol = u(0.15, 0.45)
    rate = u(0.01, 0.05)
    div = u(0.0, 0.03)
    expiry = u(0.25, 2.0)
    z = torch.randn(n_steps, n_half, generator=g)
    params = tuple(x.to(device=device, dtype=dt) for x in (spot, strike, barrier, vol, rate, div, expiry))
    return params + (z.to(device=device, dtype=dt),)


def reference(spot, strike, barrier, vol, rate, div, expiry, z) -> torch.Tensor:
    n_steps, n_half = z.shape
    out = torch.empty_like(spot)
    for o in range(spot.shape[0]):
        dt = expiry[o] / n_steps
        mu = (rate[o] - div[o] - 0.5 * vol[o] * vol[o]) * dt
        s = vol[o] * torch.sqrt(dt)
        lb = torch.log(barrier[o])
        xp = torch.full((n_half,), 1.0, dtype=z.dtype, device=z.device) * torch.log(spot[o])
        xm = xp.clone()
        alive_p = torch.ones(n_half, dtype=torch.bool, device=z.device)
        alive_m = alive_p.clone()
        for k in range(n_steps):
            sz = s * z[k]
            xp = xp + (mu + sz)
            xm = xm + (mu - sz)
            alive_p &= xp > lb
            alive_m &= xm > lb
        pay = torch.where(alive_p, torch.clamp(torch.exp(xp.double()) - strike[o].double(), min=0.0), 0.0) \
            + torch.where(alive_m, torch.clamp(torch.exp(xm.double()) - strike[o].double(), min=0.0), 0.0)
        out[o] = (math.exp(-rate[o].item() * expiry[o].item()) * 0.5 * pay.sum() / n_half).to(spot.dtype)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["n_steps"] * s["n_half"] * s["n_opt"], "flops": 10 * s["n_opt"] * s["n_steps"] * s["n_half"]}
