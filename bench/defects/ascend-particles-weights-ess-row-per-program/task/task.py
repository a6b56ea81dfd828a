"""Normalised weights, ESS and log-mean weight of a batch of large particle filters (particles' rs.Weights).

`particles.resampling.Weights(lw)` turns the N un-normalised log-weights of a filter into
    m = max(lw),  w = exp(lw - m),  s = sum(w)
    W = w / s                        normalised weights (what resampling consumes)
    ESS = 1 / sum(W^2) = s^2 / sum(w^2)   effective sample size (the resample-or-not criterion)
    log_mean = m + log(s / N)        log of the mean weight (the log-likelihood increment)
Here for B independent filters at once (several independent runs of one bootstrap filter, as
`particles.multiSMC` does for the variance of the likelihood estimate), each with a GPU-scale particle
count. Returns (W [B, N] fp32, ESS [B] fp32, log_mean [B] fp32).
"""
import torch

META = {
    "name": "particle_weights_ess",
    "level": 2,
    "category": "sequential-monte-carlo",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-8, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "N": 10000},
        "ragged": {"B": 3, "N": 20001},
        "large": {"B": 4, "N": 4194304},
    },
    "baseline_notes": "Each filter's particles are split over cdiv(40, B) programs (the A2's 40 vector cores in "
                      "all): a first kernel keeps an online max / sum(w) / sum(w^2) per chunk in 4096-wide "
                      "tiles, a second kernel merges the chunk partials of its row and writes W = exp(lw - m) / s "
                      "for its chunk (program 0 of the row also writes ESS and log_mean); no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """lw [B, N]: log-weights after a likelihood update (wide spread, as in an informative observation step)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(s["B"], s["N"], generator=g)
    lw = -0.5 * (2.5 * x - 0.7) ** 2 - 340.0
    return (lw.to(device=device, dtype=dt),)


def reference(lw: torch.Tensor) -> tuple:
    v = lw.double()
    m = v.max(dim=1, keepdim=True).values
    w = torch.exp(v - m)
    s = w.sum(dim=1)
    W = w / s[:, None]
    ess = s * s / (w * w).sum(dim=1)
    log_mean = m[:, 0] + torch.log(s / v.shape[1])
    return W.to(lw.dtype), ess.to(lw.dtype), log_mean.to(lw.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["N"]
    return {"bytes": 12 * n, "flops": 10 * n}
