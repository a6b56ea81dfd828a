"""Monte Carlo path construction under geometric Brownian motion, as the first stage of Longstaff-Schwartz pricing.

The standard normals come time-major, z [T, P] (one row of P paths per time step, the layout a path-parallel
generator writes), and the kernel returns every path's price at every step, S [T, P]:
    S[t, p] = S0 * exp(sum_{s <= t} ((r - vol^2 / 2) dt + vol sqrt(dt) z[s, p]))
"""
import math

import torch

META = {
    "name": "gbm_path_construction",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-5}},
    "sizes": {
        "small": {"T": 50, "P": 300},
        "ragged": {"T": 73, "P": 1001},
        "large": {"T": 365, "P": 524288},
    },
    "baseline_notes": "One program per block of 128 paths walking the time axis in 16-step chunks: each chunk is a "
                      "[16, 128] tile with the path axis contiguous, scanned along time with tl.cumsum plus the "
                      "running log-price carried from the previous chunk; 4 warps.",
    "deterministic": True,
}

S0, RATE, VOL, YEARS = 100.0, 0.05, 0.2, 1.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """z [T, P] standard normals, then S0, the risk-free rate, the volatility and the step dt (years)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    z = torch.randn(s["T"], s["P"], generator=g)
    return z.to(dt).to(device), S0, RATE, VOL, YEARS / s["T"]


def reference(z: torch.Tensor, s0: float, rate: float, vol: float, dt: float) -> torch.Tensor:
    inc = (rate - 0.5 * vol * vol) * dt + vol * math.sqrt(dt) * z.double()
    return (s0 * torch.exp(torch.cumsum(inc, dim=0))).to(z.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["T"] * s["P"], "flops": 5 * s["T"] * s["P"]}
