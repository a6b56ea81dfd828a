"""Monte Carlo q-Expected Improvement over a batch of candidate q-sets (BoTorch qExpectedImprovement).

For every candidate set b (q points whose joint GP posterior is N(mean[b], L[b] L[b]^T)) BoTorch draws
reparameterised posterior samples from one shared set of quasi-random base samples z_s (the
SobolQMCNormalSampler's [S, q] normal draws, the same for every b):
    Y[s, b, :] = mean[b, :] + L[b] @ z_s
and averages the best improvement of the q points over the incumbent:
    qEI[b] = (1 / S) * sum_s max_i max(Y[s, b, i] - best_f, 0).
Inputs: mean [B, q], scale_tril [B, q, q] (lower-triangular Cholesky factor of the posterior
covariance), base_samples [S, q], best_f (float). Returns qEI [B] fp32.
"""
import math

import torch

META = {
    "name": "mc_qei",
    "level": 2,
    "category": "bayesian-optimization",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 6, "q": 4, "S": 64},
        "ragged": {"B": 13, "q": 3, "S": 40},
        "large": {"B": 8192, "q": 8, "S": 1024},
    },
    "baseline_notes": "One kernel, a program per 16 candidate sets: it loops over the MC samples in chunks of 32, "
                      "forms the [32, 16, q] sample tile as mean + sum_k z[:, k] * L[:, :, k] in registers, "
                      "takes max over q of the improvement and accumulates the sum over samples; one store "
                      "of qEI per set. 4 warps, no autotune.",
    "deterministic": True,
}


def _sobol_normal(n: int, d: int, seed: int) -> torch.Tensor:
    """Scrambled Sobol points mapped through the normal inverse CDF (BoTorch draw_sobol_normal_samples)."""
    u = torch.quasirandom.SobolEngine(dimension=d, scramble=True, seed=seed).draw(n, dtype=torch.float64)
    u = u.clamp(1e-10, 1.0 - 1e-10)
    return math.sqrt(2.0) * torch.erfinv(2.0 * u - 1.0)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """GP posterior over B random q-sets (RBF covariance of q points in [0, 1]^6), Sobol base samples, best_f."""
    s = META["sizes"][size]
    B, q, S = s["B"], s["q"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pts = torch.rand(B, q, 6, generator=g, dtype=torch.float64)
    d2 = (pts[:, :, None, :] - pts[:, None, :, :]).pow(2).sum(-1)
    var = 0.05 + 0.4 * torch.rand(B, 1, 1, generator=g, dtype=torch.float64)
    cov = var * torch.exp(-0.5 * d2 / 0.3 ** 2) + 1e-4 * torch.eye(q, dtype=torch.float64)
    scale_tril = torch.linalg.cholesky(cov).contiguous()
    mean = 0.8 + 0.3 * torch.randn(B, q, generator=g, dtype=torch.float64)
    base = _sobol_normal(S, q, seed)
    best_f = 1.1
    return (mean.to(device=device, dtype=dt), scale_tril.to(device=device, dtype=dt),
            base.to(device=device, dtype=dt), best_f)


def reference(mean: torch.Tensor, scale_tril: torch.Tensor, base_samples: torch.Tensor, best_f: float) -> torch.Tensor:
    samples = mean.double()[None] + torch.einsum("bik,sk->sbi", scale_tril.double(), base_samples.double())
    improvement = (samples - best_f).clamp_min(0.0)
    return improvement.amax(dim=-1).mean(dim=0).to(mean.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, q, S = s["B"], s["q"], s["S"]
    return {"bytes": 4 * (B * q + B * q * q + S * q + B), "flops": 2 * S * B * q * q + 2 * S * B * q}
