"""Renyi-DP accountant sweep: epsilon of DP-SGD for a grid of (sample rate, noise multiplier) configs.

Opacus RDPAccountant (opacus/accountants/analysis/rdp.py, the TF Privacy compute_rdp /
get_privacy_spent analysis): for the sampled Gaussian mechanism with sample rate q and noise
multiplier sigma, at every integer order alpha

    log A_alpha = logsumexp_{i=0..alpha} [ log C(alpha, i) + i log q + (alpha - i) log(1 - q)
                                           + (i^2 - i) / (2 sigma^2) ]
    rdp_alpha   = steps * log A_alpha / (alpha - 1)
    eps_alpha   = rdp_alpha - (log delta + log alpha) / (alpha - 1) + log((alpha - 1) / alpha)

and the reported epsilon is min over the orders. The orders are the integers 2 .. n_orders + 1.
A hyper-parameter search (batch size -> q, noise multiplier) evaluates this for thousands of
configs at once, each trained for a fixed number of epochs (steps = round(epochs / q)).
Inputs: q [C] fp32, sigma [C] fp32, steps [C] int32, delta (float), n_orders (int).
Returns eps [C] fp32.
"""
import math

import torch

META = {
    "name": "rdp_epsilon_sweep",
    "level": 2,
    "category": "differential_privacy",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 2e-3}},
    "sizes": {
        "small": {"n_rates": 4, "n_sigmas": 6, "n_orders": 16},
        "ragged": {"n_rates": 5, "n_sigmas": 7, "n_orders": 13},
        "large": {"n_rates": 128, "n_sigmas": 128, "n_orders": 128},
    },
    "baseline_notes": "One program per 16 configs holds a [16, orders] tile of running log-sum-exp "
                      "state (max and scaled sum, one exp per term) and walks the binomial index i "
                      "once for all orders, carrying log C(alpha, i) incrementally; log(1 - q) is taken "
                      "without cancellation; fp32 throughout; min over orders in registers. 4 warps.",
    "deterministic": True,
}
EPOCHS = 20.0
DELTA = 1e-5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Config grid: q log-spaced in [1e-3, 0.1] x sigma in [0.6, 4.0] (seeded jitter), steps for 20 epochs."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    q = torch.logspace(-3, -1, s["n_rates"], dtype=torch.float64).repeat_interleave(s["n_sigmas"])
    sigma = torch.linspace(0.6, 4.0, s["n_sigmas"], dtype=torch.float64).repeat(s["n_rates"])
    q = q * torch.exp(0.05 * torch.randn(q.shape, generator=g, dtype=torch.float64))
    sigma = sigma * torch.exp(0.02 * torch.randn(sigma.shape, generator=g, dtype=torch.float64))
    steps = torch.round(EPOCHS / q).to(torch.int32)
    return (q.to(device=device, dtype=dt), sigma.to(device=device, dtype=dt), steps.to(device),
            DELTA, s["n_orders"])


def reference(q: torch.Tensor, sigma: torch.Tensor, steps: torch.Tensor, delta: float, n_orders: int) -> torch.Tensor:
    qd, sd, st = q.double(), sigma.double(), steps.double()
    dev = q.device
    alpha = torch.arange(2, n_orders + 2, dtype=torch.float64, device=dev)       # [O]
    i = torch.arange(0, n_orders + 2, dtype=torch.float64, device=dev)           # [I]
    log_binom = (torch.lgamma(alpha[:, None] + 1) - torch.lgamma(i[None, :] + 1)
                 - torch.lgamma((alpha[:, None] - i[None, :]).clamp(min=0) + 1))  # [O, I]
    valid = i[None, :] <= alpha[:, None]
    eps = torch.empty_like(qd)
    for start in range(0, qd.numel(), 2048):
        sl = slice(start, start + 2048)
        lq, l1q = torch.log(qd[sl]), torch.log1p(-qd[sl])
        s = (log_binom[None] + i[None, None, :] * lq[:, None, None]
             + (alpha[None, :, None] - i[None, None, :]) * l1q[:, None, None]
             + (i * i - i)[None, None, :] / (2.0 * sd[sl] ** 2)[:, None, None])
        s = torch.where(valid[None], s, torch.full_like(s, -math.inf))
        log_a = torch.logsumexp(s, dim=2)                                         # [c, O]
        e = (st[sl, None] * log_a / (alpha - 1) - (math.log(delta) + torch.log(alpha)) / (alpha - 1)
             + torch.log((alpha - 1) / alpha))
        eps[sl] = e.min(dim=1).values
    return eps.to(q.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    c, o = s["n_rates"] * s["n_sigmas"], s["n_orders"]
    return {"bytes": 16 * c, "flops": 20 * c * o * (o + 2)}
