"""Filtering moments of a multivariate stochastic-volatility particle filter (particles' Moments collector).

After each step, `particles.collectors.Moments` records the weighted mean and variance of every state
component (`resampling.wmean_and_var(W, X)`: mean = sum_n W_n X_n, var = sum_n W_n X_n^2 - mean^2,
component-wise; `wmean_and_var_str_array` does the same field by field for record arrays). Here for B
filters at once (parallel PMMH chains / SMC^2 theta-particles), each with N particles of the D-dimensional
log-volatility state of `state_space_models.MVStochVol` (D assets). The particle array is laid out as
particles keeps it: X [B, N, D], the D components of a particle contiguous. W [B, N] are normalised weights.
Returns (mean [B, D] fp32, var [B, D] fp32).
"""
import torch

META = {
    "name": "particle_weighted_moments",
    "level": 2,
    "category": "sequential-monte-carlo",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "N": 700, "D": 8},
        "ragged": {"B": 5, "N": 1000, "D": 8},
        "large": {"B": 128, "N": 32768, "D": 8},
    },
    "baseline_notes": "min(40, B) programs (the A2's vector cores) loop over filters; per filter one pass over "
                      "[512, D] tiles of X (whole particles, contiguous) with the matching 512 weights, "
                      "W*x and W*x^2 accumulated element-wise in [512, D] tiles and reduced over particles once "
                      "at the end; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """W [B, N] normalised weights, X [B, N, D] log-volatility particles."""
    s = META["sizes"][size]
    B, N, D = s["B"], s["N"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    level = -1.0 + 0.3 * torch.randn(B, 1, D, generator=g)
    X = level + 0.4 * torch.randn(B, N, D, generator=g)
    lw = -0.5 * (1.5 * torch.randn(B, N, generator=g)) ** 2
    W = torch.softmax(lw, dim=1)
    return W.to(device=device, dtype=dt), X.to(device=device, dtype=dt)


def reference(W: torch.Tensor, X: torch.Tensor) -> tuple:
    w, x = W.double()[:, :, None], X.double()
    mean = (w * x).sum(dim=1)
    var = (w * x * x).sum(dim=1) - mean * mean
    return mean.to(X.dtype), var.to(X.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["N"]
    return {"bytes": 4 * n * (s["D"] + 1) + 8 * s["B"] * s["D"], "flops": 4 * n * s["D"]}
