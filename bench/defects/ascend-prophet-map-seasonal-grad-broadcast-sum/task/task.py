"""Gradient of Prophet's MAP objective w.r.t. the seasonality coefficients, for a fleet of series.

Prophet fits its Stan model (additive seasonality, linear growth) by L-BFGS on the negative log
posterior
    y ~ normal(trend + X @ beta, sigma_obs),   beta ~ normal(0, sigmas)
where X [T, F] holds the Fourier seasonality features (make_seasonality_features: yearly order 10
and weekly order 3 give sin/cos columns 2 * (10 + 3) = 26) and sigmas the per-feature prior scales
(seasonality_prior_scale = 10). Fitting S series at once, every L-BFGS iteration needs
    grad_beta[s, f] = sum_t X[t, f] * (yhat[s, t] - y[s, t]) / sigma_obs[s]^2 + beta[s, f] / sigmas[f]^2
with yhat the current model mean. y and yhat are the scaled observations ([S, T], time contiguous).
"""
import math

import torch

META = {
    "name": "prophet_map_seasonal_beta_grad",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"S": 10, "T": 50, "yearly": 10, "weekly": 3},
        "ragged": {"S": 13, "T": 77, "yearly": 7, "weekly": 3},
        "large": {"S": 8192, "T": 1461, "yearly": 10, "weekly": 3},
    },
    "baseline_notes": "min(20, blocks) programs (the A2's AI cores) loop over blocks of 64 series; per block "
                      "a K loop over 128 dates forms the residual tile yhat - y [64, 128] in the UB and "
                      "accumulates tl.dot(residual, X tile [128, 32]) on the cube (features padded 26 -> 32), "
                      "then scales by 1 / sigma_obs^2 and adds the prior term. No autotune.",
    "deterministic": True,
}


def fourier_features(t_days: torch.Tensor, period: float, order: int) -> torch.Tensor:
    """Prophet's fourier_series: columns sin(2 pi (i+1) t / P), cos(2 pi (i+1) t / P), i < order."""
    x = 2.0 * math.pi * torch.arange(1, order + 1, dtype=torch.float64)[None, :] * t_days[:, None] / period
    return torch.stack([torch.sin(x), torch.cos(x)], dim=-1).reshape(t_days.shape[0], 2 * order)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """y [S, T], yhat [S, T], X [T, F], beta [S, F], sigma_obs [S], sigmas [F]."""
    s = META["sizes"][size]
    S, T = s["S"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t_days = 18262.0 + torch.arange(T, dtype=torch.float64)          # days since 1970-01-01, from 2020
    X = torch.cat([fourier_features(t_days, 365.25, s["yearly"]),
                   fourier_features(t_days, 7.0, s["weekly"])], dim=1)
    F = X.shape[1]
    beta = torch.randn(S, F, generator=g, dtype=torch.float64) * 0.05
    trend = 0.3 + 0.4 * torch.rand(S, 1, generator=g, dtype=torch.float64) * (t_days[None, :] - t_days[0]) / T
    sigma_obs = 0.02 + 0.08 * torch.rand(S, generator=g, dtype=torch.float64)
    yhat = trend + beta @ X.T
    y = yhat + sigma_obs[:, None] * torch.randn(S, T, generator=g, dtype=torch.float64)
    sigmas = torch.full((F,), 10.0, dtype=torch.float64)
    return tuple(v.to(dt).to(device) for v in (y, yhat, X, beta, sigma_obs, sigmas))


def reference(y, yhat, X, beta, sigma_obs, sigmas) -> torch.Tensor:
    r = yhat.double() - y.double()
    g = (r @ X.double()) / sigma_obs.double()[:, None] ** 2 + beta.double() / sigmas.double()[None, :] ** 2
    return g.to(y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    S, T = s["S"], s["T"]
    F = 2 * (s["yearly"] + s["weekly"])
    return {"bytes": 4 * (2 * S * T + T * F + 2 * S * F + S + F), "flops": 2 * S * T * F + S * T}
