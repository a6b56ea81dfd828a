"""GARCH(1,1) conditional-variance filter and Gaussian negative log-likelihood for a panel of
return series, the inner loop of arch's GARCH.fit (arch.univariate.recursions.garch_recursion +
the normal loglikelihood) evaluated for every series of an equity universe at once:

    sigma2[0] = omega + (alpha + beta) * backcast
    sigma2[t] = omega + alpha * r[t-1]^2 + beta * sigma2[t-1]
    nll       = 0.5 * sum_t (log(2 pi) + log(sigma2[t]) + r[t]^2 / sigma2[t])

Returns (sigma2 [A, T] fp32, nll [A] fp32)."""
import math

import torch

META = {
    "name": "garch11_variance_nll",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"A": 6, "T": 300},
        "ragged": {"A": 37, "T": 1301},
        "large": {"A": 3000, "T": 5040},
    },
    "baseline_notes": "One program per series, the time axis in 1,024-step chunks: sigma2[t] = beta * sigma2[t-1] + "
                      "(omega + alpha * r[t-1]^2) is a first-order linear recurrence, so each chunk is an "
                      "associative scan of (beta, u) pairs plus the carried-in variance; the NLL terms are "
                      "summed per chunk. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Daily percent returns simulated from per-series GARCH(1,1) processes, trial parameters near
    the true ones (an optimiser step of the MLE) and arch's exponential backcast of r^2."""
    s = META["sizes"][size]
    A, T = s["A"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    omega = 0.01 + 0.09 * torch.rand(A, generator=g, dtype=torch.float64)
    alpha = 0.03 + 0.12 * torch.rand(A, generator=g, dtype=torch.float64)
    beta = torch.minimum(0.80 + 0.15 * torch.rand(A, generator=g, dtype=torch.float64), 0.99 - alpha)
    z = torch.randn(A, T, generator=g, dtype=torch.float64)
    r = torch.empty(A, T, dtype=torch.float64)
    h = omega / (1 - alpha - beta)
    for t in range(T):
        r[:, t] = h.sqrt() * z[:, t]
        h = omega + alpha * r[:, t] ** 2 + beta * h
    tau = min(75, T)
    w = 0.94 ** torch.arange(tau, dtype=torch.float64)
    backcast = (r[:, :tau] ** 2 * (w / w.sum())).sum(1)
    jitter = 1 + 0.05 * torch.randn(3, A, generator=g, dtype=torch.float64)
    a_try = alpha * jitter[1]
    params = [omega * jitter[0], a_try, torch.minimum(beta * jitter[2], 0.995 - a_try)]
    out = [r, *params, backcast]
    return tuple(x.to(dt).to(device) for x in out)


def reference(returns, omega, alpha, beta, backcast):
    r = returns.double()
    w, a, b = omega.double(), alpha.double(), beta.double()
    sigma2 = torch.empty_like(r)
    h = w + (a + b) * backcast.double()
    sigma2[:, 0] = h
    for t in range(1, r.shape[1]):
        h = w + a * r[:, t - 1] ** 2 + b * h
        sigma2[:, t] = h
    nll = 0.5 * (math.log(2 * math.pi) + sigma2.log() + r * r / sigma2).sum(1)
    return sigma2.to(returns.dtype), nll.to(returns.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["A"] * s["T"] + 16 * s["A"] + 4 * s["A"], "flops": 8 * s["A"] * s["T"]}
