"""Per-variant linear-regression association statistics for many quantitative traits (regenie step 2, QT test).

G [M, N] float16 holds the dosages (0..2) of a block of M variants for N samples, variant-major as
regenie's genotype block; Y [N, P] float16 holds P phenotypes already residualised on the covariates
and the step-1 LOCO predictions (mean zero, unit variance), y_sq [P] float32 their sums of squares.
With mu = mean(g), S_gg = g.g - N mu^2 and S_gy = g.y (y is centred), the model y = beta g + e gives
beta = S_gy / S_gg, rss = y.y - beta S_gy, se^2 = rss / ((N - 2) S_gg) and chisq = (beta / se)^2.
Outputs beta [M, P] and chisq [M, P], float32.
"""
import torch

META = {
    "name": "gwas_qt_linear_stats",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-4, "rtol": 2e-3}},
    "sizes": {
        "small": {"M": 12, "N": 300, "P": 16},
        "ragged": {"M": 19, "N": 517, "P": 16},
        "large": {"M": 2048, "N": 337408, "P": 16},
    },
    "baseline_notes": "Split over samples: a [cdiv(M, 64), 8] grid, each program multiplies a 64-variant by "
                      "256-sample dosage tile with the [256, P] phenotype tile by tl.dot into fp32 and sums g and "
                      "g^2 per variant over its eighth of N into a partial buffer; a second small kernel adds the "
                      "8 partials and computes beta and chisq; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """G [M, N] fp16 dosages, Y [N, P] fp16 residualised phenotypes, y_sq [P] fp32."""
    s = META["sizes"][size]
    M, N, P = s["M"], s["N"], s["P"]
    g = torch.Generator().manual_seed(seed)
    maf = 0.02 + 0.48 * torch.rand(M, 1, generator=g)
    G = torch.empty(M, N, dtype=torch.float16)
    for lo in range(0, M, 256):
        hi = min(lo + 256, M)
        calls = (torch.rand(hi - lo, N, generator=g) < maf[lo:hi]).to(torch.float16)
        calls += (torch.rand(hi - lo, N, generator=g) < maf[lo:hi]).to(torch.float16)
        G[lo:hi] = calls
    G[:, 0] = 1.0  # no monomorphic variant in a block
    G[:, 1] = 0.0
    Y = torch.randn(N, P, generator=g, dtype=torch.float64)
    Y = (Y - Y.mean(0)) / Y.std(0)
    Y = Y.to(torch.float16)
    y_sq = (Y.double() ** 2).sum(0).to(torch.float32)
    return G.to(device), Y.to(device), y_sq.to(device)


def reference(G: torch.Tensor, Y: torch.Tensor, y_sq: torch.Tensor) -> tuple:
    g, y = G.double(), Y.double()
    N = g.shape[1]
    mu = g.sum(1) / N
    s_gg = (g * g).sum(1) - N * mu * mu
    s_gy = g @ y
    beta = s_gy / s_gg[:, None]
    rss = y_sq.double()[None, :] - beta * s_gy
    chisq = beta * s_gy * (N - 2) / rss
    return beta.to(torch.float32), chisq.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, N, P = s["M"], s["N"], s["P"]
    return {"bytes": 2 * M * N + 2 * N * P + 4 * P + 8 * M * P, "flops": 2 * M * N * P + 3 * M * N}
