"""Factor-model risk attribution of many portfolios (Riskfolio-Lib Factors_Risk_Contribution, Barra-style).

With a structural risk model Sigma = B F B^T + diag(d) (B [N, K] factor loadings, F [K, K] factor
covariance, d [N] specific variances), every portfolio w_p (a row of W [P, N]) is decomposed into
    exposure  x_p = B^T w_p                              [K]
    factor contributions  c_pk = x_pk * (F x_p)_k        [K]   (Euler split of the factor variance)
    specific variance     s_p  = sum_i w_pi^2 d_i
so that w_p^T Sigma w_p = sum_k c_pk + s_p. Returns (x [P, K], c [P, K], s [P]), fp32.
"""
import torch

META = {
    "name": "factor_risk_attribution",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 5e-3}},
    "sizes": {
        "small": {"P": 24, "N": 96, "K": 16},
        "ragged": {"P": 37, "N": 150, "K": 20},
        "large": {"P": 4096, "N": 3072, "K": 64},
    },
    "baseline_notes": "20 programs (the 910B's AI cores) loop over blocks of 64 portfolios; each streams "
                      "[64, 128] weight tiles and [128, K] loading tiles through tl.dot on the cube into a "
                      "[64, K] exposure accumulator (specific variance summed on the vector unit alongside), "
                      "then one [64, K] x [K, K] tl.dot with F and the Euler products; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """W [P, N] long-only weights summing to 1, B [N, K] loadings, F [K, K] SPD factor cov, d [N] (%^2/yr)."""
    s = META["sizes"][size]
    P, N, K = s["P"], s["N"], s["K"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    raw = torch.rand(P, N, generator=g) * (torch.rand(P, N, generator=g) < 0.25)
    raw[:, 0] += 1e-3
    W = raw / raw.sum(dim=1, keepdim=True)
    B = torch.randn(N, K, generator=g)
    B[:, 0] = 1.0 + 0.3 * torch.randn(N, generator=g)  # market factor
    A = torch.randn(K, K, generator=g) * 10.0
    F = A @ A.T / K + torch.diag(torch.full((K,), 25.0))  # annualised, in %^2 (Barra convention)
    d = (20.0 + 30.0 * torch.rand(N, generator=g)) ** 2   # specific variances, %^2 per year
    return tuple(t.to(dt).to(device) for t in (W, B, F, d))


def reference(W: torch.Tensor, B: torch.Tensor, F: torch.Tensor, d: torch.Tensor) -> tuple:
    w, b, f, dv = W.double(), B.double(), F.double(), d.double()
    x = w @ b
    c = x * (x @ f)
    s = (w * w) @ dv
    return x.to(W.dtype), c.to(W.dtype), s.to(W.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P, N, K = s["P"], s["N"], s["K"]
    return {"bytes": 4 * (P * N + N * K + K * K + N + 2 * P * K + P),
            "flops": 2 * P * N * K + 2 * P * K * K + 3 * P * N}
