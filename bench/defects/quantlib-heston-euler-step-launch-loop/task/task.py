"""Heston stochastic-volatility Monte Carlo, full-truncation Euler (QuantLib HestonProcess::evolve, FullTruncation).

Every path starts at (S0, v0) and takes one step per time-grid interval dt:
    v+ = max(v, 0),  S <- S * exp((r - v+/2) dt + sqrt(v+ dt) z1),
    v  <- v + kappa (theta - v+) dt + sigma sqrt(v+ dt) (rho z1 + sqrt(1 - rho^2) z2).
The normals come from a cuRAND-style generator as z[2, steps, paths]; the output is S_T per path.
"""
import math

import torch

META = {
    "name": "heston_fulltrunc_euler_paths",
    "level": 2,
    "category": "monte-carlo",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"P": 300, "T": 16},
        "ragged": {"P": 777, "T": 13},
        "large": {"P": 1048576, "T": 252},
    },
    "baseline_notes": "One launch: each program owns BLOCK paths, keeps (S, v) in registers and loops over the "
                      "time steps, loading that step's two normals; BLOCK 1024, 4 warps, no autotune.",
    "deterministic": True,
}

# S0, v0, kappa, theta, sigma, rho, r, dt: a calibrated equity-index parameter set (Feller condition holds)
PARAMS = (100.0, 0.04, 2.0, 0.04, 0.3, -0.7, 0.03, 1.0 / 252.0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """z [2, T, P] standard normals (time-major, as the generator writes them), heston [8] = (S0, v0, kappa, theta, sigma, rho, r, dt)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    z = torch.randn(2, s["T"], s["P"], generator=g, dtype=dt)
    heston = torch.tensor(PARAMS, dtype=torch.float32)
    return z.to(device), heston.to(device)


def reference(z: torch.Tensor, heston: torch.Tensor) -> torch.Tensor:
    s0, v0, kappa, theta, sigma, rho, r, dt = heston.double().tolist()
    sdt, rho_bar = math.sqrt(dt), math.sqrt(1.0 - rho * rho)
    n_paths = z.shape[2]
    s = torch.full((n_paths,), s0, dtype=torch.float64, device=z.device)
    v = torch.full((n_paths,), v0, dtype=torch.float64, device=z.device)
    for t in range(z.shape[1]):
        z1, z2 = z[0, t].double(), z[1, t].double()
        vp = v.clamp(min=0.0)
        vol = vp.sqrt()
        s = s * torch.exp((r - 0.5 * vp) * dt + vol * sdt * z1)
        v = v + kappa * (theta - vp) * dt + sigma * vol * sdt * (rho * z1 + rho_bar * z2)
    return s.to(z.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["T"] * s["P"] + 4 * s["P"], "flops": 20 * s["T"] * s["P"]}
