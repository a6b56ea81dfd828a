"""Split R-hat of every parameter over chains and draws (numpyro.diagnostics.split_gelman_rubin,
the classic split potential scale reduction of Gelman et al., BDA3; ArviZ rhat(method="split")).

samples has NumPyro's group_by_chain layout [C chains, N draws, P parameters] (the flattened latent
sites, parameters contiguous). Each chain is split into its first and last H = N // 2 draws, giving
M = 2C split chains; with split-chain means m_j and unbiased variances s_j^2:

    W = mean_j s_j^2,   B/H = var_j(m_j) (ddof=1),   var+ = W (H - 1) / H + B/H,   R-hat = sqrt(var+ / W)

Returns R-hat [P] fp32.
"""
import torch

META = {
    "name": "split_rhat",
    "level": 2,
    "category": "mcmc-diagnostics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"C": 2, "N": 24, "P": 40},
        "ragged": {"C": 3, "N": 37, "P": 77},
        "large": {"C": 4, "N": 1000, "P": 40000},
    },
    "baseline_notes": "Grid over blocks of 64 contiguous parameters; each program walks the 2C split chains in "
                      "[64 draws, 64 parameters] tiles (parameter axis contiguous, reductions over draws), "
                      "keeps shifted sums and sums of squares per split chain, and combines W and B in "
                      "registers. 8 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Posterior draws [C, N, P]: per-parameter location and scale; a tenth of the parameters have
    chains stuck at different offsets and a drift within each chain (unconverged, R-hat > 1)."""
    s = META["sizes"][size]
    c, n, p = s["C"], s["N"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    loc = 2.0 * torch.randn(p, generator=g)
    scale = torch.exp(torch.rand(p, generator=g) * 2.0 - 1.0)
    bad = (torch.rand(p, generator=g) < 0.1).float()
    offset = bad * 0.7 * torch.randn(c, 1, p, generator=g)
    drift = bad * 0.5 * torch.randn(c, 1, p, generator=g) * torch.linspace(-1.0, 1.0, n)[None, :, None]
    x = loc + scale * (torch.randn(c, n, p, generator=g) + offset + drift)
    return (x.to(device=device, dtype=dt),)


def reference(samples: torch.Tensor) -> torch.Tensor:
    x = samples.double()
    c, n, _ = x.shape
    h = n // 2
    split = torch.cat([x[:, :h], x[:, n - h:]], dim=0)          # [2C, H, P]
    mean = split.mean(1)
    w = split.var(1, unbiased=True).mean(0)
    b_over_h = mean.var(0, unbiased=True)
    var_plus = w * (h - 1) / h + b_over_h
    return torch.sqrt(var_plus / w).to(samples.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["C"] * s["N"] * s["P"] + 4 * s["P"], "flops": 3 * s["C"] * s["N"] * s["P"]}
