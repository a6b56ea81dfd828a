"""RiskMetrics EWMA covariance backfill: C_t = lam * C_{t-1} + (1 - lam) * r_t r_t^T over a window of daily returns.

Given the covariance at the start of the window cov0 [N, N] and the demeaned daily returns of the window
returns [T, N] (percent), the task returns C_T, the covariance after the T daily updates (lam = 0.94,
the RiskMetrics daily decay).
"""
import torch

LAM = 0.94

META = {
    "name": "ewma_covariance_backfill",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 48, "T": 12},
        "ragged": {"N": 77, "T": 19},
        "large": {"N": 2048, "T": 252},
    },
    "baseline_notes": "One launch: a persistent grid of 40 programs over [64, 64] tiles of C; each program walks "
                      "the window in 32-day chunks and accumulates (w * R_i)^T R_j with tl.dot, w_t = (1 - lam) "
                      "lam^(T-1-t), then adds lam^T * cov0 and stores the tile once.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cov0 [N, N] symmetric PSD (a prior EWMA estimate), returns [T, N] daily returns in percent."""
    s = META["sizes"][size]
    N, T = s["N"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    vol = 0.8 + 1.6 * torch.rand(N, generator=g)
    load = torch.randn(N, 8, generator=g)
    hist = (torch.randn(64, 8, generator=g) @ load.T) * 0.3 + torch.randn(64, N, generator=g) * vol
    cov0 = hist.T @ hist / 64.0
    market = torch.randn(T, 8, generator=g) @ load.T * 0.3
    returns = market + torch.randn(T, N, generator=g) * vol
    return cov0.to(dt).to(device), returns.to(dt).to(device)


def reference(cov0: torch.Tensor, returns: torch.Tensor) -> torch.Tensor:
    c = cov0.double()
    for r in returns.double():
        c = LAM * c + (1.0 - LAM) * torch.outer(r, r)
    return c.to(cov0.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    N, T = s["N"], s["T"]
    return {"bytes": 4 * (2 * N * N + T * N), "flops": 2 * N * N * T + 2 * N * N}
