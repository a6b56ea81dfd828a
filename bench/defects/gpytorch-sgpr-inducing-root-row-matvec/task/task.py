"""SGPR / Nystrom feature map (GPyTorch InducingPointKernel): Phi = K(X, Z) @ inv_root.

K(X, Z) is the ScaleKernel(RBFKernel) cross-covariance between the N data points and the M inducing
points, outputscale * exp(-|x - z|^2 / (2 lengthscale^2)), evaluated on the fly; inv_root [M, M] is
the precomputed inverse upper Cholesky factor of K(Z, Z) + jitter, so Phi Phi^T = K_xz K_zz^-1 K_zx.
Points fp32 [N, D] and [M, D], inv_root fp32 [M, M]; output fp32 [N, M].
"""
import torch

META = {
    "name": "sgpr_inducing_root_features",
    "level": 2,
    "category": "gaussian-process",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 40, "M": 24, "D": 3},
        "ragged": {"N": 77, "M": 45, "D": 3},
        "large": {"N": 434874, "M": 512, "D": 3},
    },
    "baseline_notes": "Grid over [64 points x 128 features] output tiles; the K(X, Z) tile of 32 inducing points "
                      "is computed in registers (D-term distance, exp) and multiplied into an fp32 accumulator with "
                      "tl.dot(input_precision='tf32x3'); 4 warps, no autotune.",
    "deterministic": True,
}
LENGTHSCALE = 0.5
OUTPUTSCALE = 1.5
JITTER = 1e-4


def _rbf(a: torch.Tensor, b: torch.Tensor, lengthscale: float, outputscale: float) -> torch.Tensor:
    d2 = (a[:, None, :] - b[None, :, :]).div(lengthscale).pow(2).sum(-1)
    return outputscale * torch.exp(-0.5 * d2)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Standardised inputs x [N, D], inducing points z [M, D] (a subset of x), inv_root [M, M], lengthscale, outputscale."""
    s = META["sizes"][size]
    n, m, d = s["N"], s["M"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.randn(n, d, generator=g).to(dt)
    z = x[torch.randperm(n, generator=g)[:m]].clone()
    kzz = _rbf(z.double(), z.double(), LENGTHSCALE, OUTPUTSCALE) + JITTER * OUTPUTSCALE * torch.eye(m, dtype=torch.float64)
    upper = torch.linalg.cholesky(kzz, upper=True)
    inv_root = torch.linalg.solve_triangular(upper, torch.eye(m, dtype=torch.float64), upper=True)
    return x.to(device), z.to(device), inv_root.to(device=device, dtype=dt).contiguous(), LENGTHSCALE, OUTPUTSCALE


def reference(x, z, inv_root, lengthscale, outputscale) -> torch.Tensor:
    zd, r = z.double(), inv_root.double()
    out = torch.empty(x.shape[0], z.shape[0], dtype=torch.float64, device=x.device)
    for start in range(0, x.shape[0], 32768):
        out[start:start + 32768] = _rbf(x[start:start + 32768].double(), zd, lengthscale, outputscale) @ r
    return out.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, m, d = s["N"], s["M"], s["D"]
    return {"bytes": 4 * (n * d + m * d + m * m + n * m), "flops": 2 * n * m * m + (3 * d + 4) * n * m}
