"""Black-Scholes call Greeks over an option book (py_vollib / py_vollib_vectorized analytical Greeks).

For each option (spot S, strike K, time to expiry tau in years, implied vol sigma) and one
risk-free rate r: d1 = (log(S/K) + (r + sigma^2/2) tau) / (sigma sqrt(tau)), d2 = d1 - sigma sqrt(tau);
delta = N(d1), gamma = phi(d1) / (S sigma sqrt(tau)), vega = S phi(d1) sqrt(tau) / 100,
theta = (-S phi(d1) sigma / (2 sqrt(tau)) - r K exp(-r tau) N(d2)) / 365,
rho = K tau exp(-r tau) N(d2) / 100 (py_vollib's per-1%-vol, per-day, per-1% scalings).
"""
import math

import torch

META = {
    "name": "bsm_call_greeks",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 1000},
        "ragged": {"N": 3001},
        "large": {"N": 16777216},
    },
    "baseline_notes": "One fused elementwise kernel, BLOCK = 1024, 4 warps: loads S, K, tau, sigma once, "
                      "computes d1/d2, N(.), phi(.) once and stores all five Greeks.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """spot, strike, tau, sigma [N] and rate [1]: a book of listed calls around the money."""
    N = META["sizes"][size]["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    spot = 50.0 + 150.0 * torch.rand(N, generator=g)
    moneyness = torch.exp(0.25 * torch.randn(N, generator=g))
    strike = torch.round(spot * moneyness * 2.0) / 2.0 + 0.5
    tau = (1.0 + torch.randint(0, 730, (N,), generator=g).float()) / 365.0
    sigma = 0.10 + 0.50 * torch.rand(N, generator=g)
    rate = torch.tensor([0.045])
    return tuple(t.to(dt).to(device) for t in (spot, strike, tau, sigma, rate))


def reference(spot, strike, tau, sigma, rate):
    S, K, T, v = (t.double() for t in (spot, strike, tau, sigma))
    r = rate.double()[0]
    sqt = torch.sqrt(T)
    d1 = (torch.log(S / K) + (r + 0.5 * v * v) * T) / (v * sqt)
    d2 = d1 - v * sqt
    cdf = lambda x: 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))
    pdf1 = torch.exp(-0.5 * d1 * d1) / math.sqrt(2.0 * math.pi)
    disc = torch.exp(-r * T)
    delta = cdf(d1)
    gamma = pdf1 / (S * v * sqt)
    vega = S * pdf1 * sqt * 0.01
    theta = (-S * pdf1 * v / (2.0 * sqt) - r * K * disc * cdf(d2)) / 365.0
    rho = K * T * disc * cdf(d2) * 0.01
    return tuple(g.to(spot.dtype) for g in (delta, gamma, vega, theta, rho))


def cost(size: str, dtype: str | None = None) -> dict:
    N = META["sizes"][size]["N"]
    return {"bytes": 4 * 4 * N + 5 * 4 * N + 4, "flops": 60 * N}
