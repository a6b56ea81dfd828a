"""Ledoit-Wolf shrinkage towards the constant-correlation target (PyPortfolioOpt CovarianceShrinkage).

Given the sample covariance S [N, N] and the shrinkage intensity delta, with sigma_i = sqrt(S_ii):
    r_bar = (sum_ij S_ij / (sigma_i sigma_j) - N) / (N (N - 1))       (mean off-diagonal correlation)
    F_ij  = r_bar sigma_i sigma_j  (i != j),   F_ii = S_ii             (constant-correlation target)
    shrunk = delta F + (1 - delta) S
as in PyPortfolioOpt's CovarianceShrinkage.ledoit_wolf(shrinkage_target="constant_correlation")
(Ledoit & Wolf 2004, "Honey, I shrunk the sample covariance matrix"). fp32 in and out.
"""
import torch

META = {
    "name": "constant_correlation_shrinkage",
    "level": 2,
    "category": "elementwise-reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-8, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 40, "T": 120},
        "ragged": {"N": 77, "T": 150},
        "large": {"N": 4096, "T": 1260},
    },
    "baseline_notes": "A tiny launch writes sigma = sqrt(diag S) into a contiguous vector; then two launches "
                      "of 40 programs (the 910B's vector cores), each looping over blocks of 16 rows and "
                      "walking them in [16, 256] tiles with sigma read as contiguous row and column vectors: "
                      "the first writes one partial sum of S_ij / (sigma_i sigma_j) per program, the second "
                      "sums the partials into r_bar and writes the blended matrix; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Sample covariance S [N, N] of T daily returns from a 3-factor model, and delta (float)."""
    s = META["sizes"][size]
    N, T = s["N"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    f = torch.randn(T, 3, generator=g) * torch.tensor([0.011, 0.006, 0.004])
    beta = torch.randn(N, 3, generator=g) * 0.4 + torch.tensor([1.0, 0.0, 0.0])
    eps = torch.randn(T, N, generator=g) * (0.008 + 0.017 * torch.rand(N, generator=g))
    X = (f @ beta.T + eps).double()
    Xc = X - X.mean(dim=0, keepdim=True)
    S = Xc.T @ Xc / (T - 1)
    delta = 0.2 + 0.5 * torch.rand(1, generator=g).item()
    return S.to(dt).to(device), delta


def reference(S: torch.Tensor, delta: float) -> torch.Tensor:
    s = S.double()
    n = s.shape[0]
    sd = torch.sqrt(torch.diagonal(s))
    outer = sd[:, None] * sd[None, :]
    r_bar = ((s / outer).sum() - n) / (n * (n - 1))
    F = r_bar * outer
    F.diagonal().copy_(torch.diagonal(s))
    return (delta * F + (1.0 - delta) * s).to(S.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 12 * n * n, "flops": 8 * n * n}
