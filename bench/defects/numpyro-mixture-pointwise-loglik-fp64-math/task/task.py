"""Pointwise log-likelihood of a 1-D Gaussian mixture for every posterior draw (NumPyro
MixtureSameFamily(Categorical(w), Normal(loc, scale)).log_prob evaluated by
numpyro.infer.log_likelihood over the posterior samples: the [draws, observations] matrix that
ArviZ's loo / waic read from the log_likelihood group).

    loglik[s, n] = logsumexp_k ( log w[s, k] + log Normal(y[n] | loc[s, k], scale[s, k]) )
                 = logsumexp_k ( log w - log scale - log(2 pi) / 2 - ((y - loc) / scale)^2 / 2 )

Inputs: observations y [N] fp32 and per-draw mixture parameters w, loc, scale [S, K] fp32 (w on
the simplex). Returns loglik [S, N] fp32.
"""
import torch

META = {
    "name": "mixture_pointwise_loglik",
    "level": 2,
    "category": "mcmc",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"S": 6, "N": 40, "K": 3},
        "ragged": {"S": 7, "N": 77, "K": 5},
        "large": {"S": 4000, "N": 10000, "K": 8},
    },
    "baseline_notes": "2-D grid of [16 draws, 128 observations] tiles; each program loops over the K "
                      "components, loading that component's log-weight, loc and scale for its 16 draws, and "
                      "keeps a running max and a rescaled sum of exponentials (one exp per component) in "
                      "fp32 registers; one log and one store at the end. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Observations drawn from a K-component mixture and S posterior draws scattered around it."""
    s = META["sizes"][size]
    n_draws, n_obs, k = s["S"], s["N"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    true_loc = torch.linspace(-12.0, 12.0, k) + 0.5 * torch.randn(k, generator=g)
    true_scale = 0.5 + 1.5 * torch.rand(k, generator=g)
    true_logit = 0.5 * torch.randn(k, generator=g)
    comp = torch.multinomial(torch.softmax(true_logit, 0), n_obs, replacement=True, generator=g)
    y = true_loc[comp] + true_scale[comp] * torch.randn(n_obs, generator=g)
    loc = true_loc + 0.1 * torch.randn(n_draws, k, generator=g)
    scale = true_scale * torch.exp(0.05 * torch.randn(n_draws, k, generator=g))
    w = torch.softmax(true_logit + 0.1 * torch.randn(n_draws, k, generator=g), dim=1)
    return tuple(t.to(device=device, dtype=dt) for t in (y, w, loc, scale))


def reference(y: torch.Tensor, w: torch.Tensor, loc: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    yd, wd, ld, sd = y.double(), w.double(), loc.double(), scale.double()
    z = (yd[None, :, None] - ld[:, None, :]) / sd[:, None, :]             # [S, N, K]
    log_norm = -0.5 * z * z - torch.log(sd)[:, None, :] - 0.5 * torch.log(torch.tensor(2.0 * torch.pi))
    out = torch.logsumexp(torch.log(wd)[:, None, :] + log_norm, dim=2)
    return out.to(y.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * (s["N"] + 3 * s["S"] * s["K"] + s["S"] * s["N"]),
            "flops": 10 * s["S"] * s["N"] * s["K"]}
