"""Diagonal-covariance GMM E-step: posterior responsibilities of every descriptor for every Gaussian.

As in VLFeat's vl_get_gmm_data_posteriors (Fisher-vector encoding), with the GMM held in natural-parameter
form as Kaldi's DiagGmm stores it:
    loglik[n, k] = gconst[k] + sum_d x[n, d] * mean_prec[k, d] - 0.5 * sum_d x[n, d]^2 * prec[k, d]
    resp[n, :]   = softmax_k(loglik[n, :])
with prec = 1 / sigma^2, mean_prec = mu * prec and
gconst = log w - 0.5 * (D log(2 pi) + sum_d log sigma^2 + sum_d mu^2 * prec).
"""
import math

import torch

META = {
    "name": "gmm_diag_posteriors",
    "level": 2,
    "category": "clustering",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-5, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 40, "K": 16, "D": 16},
        "ragged": {"N": 77, "K": 32, "D": 32},
        "large": {"N": 262144, "K": 256, "D": 64},
    },
    "baseline_notes": "20 programs (AI cores, cube + vector), each holding mean_prec and -0.5*prec [K, D] and "
                      "looping over 32-descriptor tiles: two tl.dot products into one [32, K] fp32 accumulator, "
                      "plus gconst, then a row softmax over the K components; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, D], gconst [K], mean_prec [K, D], prec [K, D], all float32 (a GMM fitted to whitened descriptors)."""
    s = META["sizes"][size]
    N, K, D = s["N"], s["K"], s["D"]
    g = torch.Generator().manual_seed(seed)
    mu = torch.randn(K, D, generator=g, dtype=torch.float64) * 0.5
    var = 0.3 + 1.2 * torch.rand(K, D, generator=g, dtype=torch.float64)
    w = torch.rand(K, generator=g, dtype=torch.float64) + 0.2
    w = w / w.sum()
    comp = torch.multinomial(w, N, replacement=True, generator=g)
    x = mu[comp] + torch.randn(N, D, generator=g, dtype=torch.float64) * var[comp].sqrt()
    prec = 1.0 / var
    mean_prec = mu * prec
    gconst = torch.log(w) - 0.5 * (D * math.log(2 * math.pi) + torch.log(var).sum(1) + (mu * mu * prec).sum(1))
    f32 = dict(dtype=torch.float32, device=device)
    return x.to(**f32), gconst.to(**f32), mean_prec.to(**f32), prec.to(**f32)


def reference(x: torch.Tensor, gconst: torch.Tensor, mean_prec: torch.Tensor, prec: torch.Tensor) -> torch.Tensor:
    xd = x.double()
    loglik = gconst.double()[None, :] + xd @ mean_prec.double().T - 0.5 * (xd * xd) @ prec.double().T
    return torch.softmax(loglik, dim=1).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, K, D = s["N"], s["K"], s["D"]
    return {"bytes": 4 * (N * D + N * K + 2 * K * D + K), "flops": 4 * N * K * D + 5 * N * K}
