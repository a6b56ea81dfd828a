"""Hyperparameter gradient of the exact-GP data-fit term for a ScaleKernel(MaternKernel(nu=2.5, ARD)) (GPyTorch).

With alpha = K^-1 y from the CG solve, the data-fit part of the marginal log likelihood gradient is
0.5 * alpha^T (dK/dtheta) alpha, a reduction over all N^2 pairs that GPyTorch's KeOps/LinearOperator
backward (_bilinear_derivative) evaluates without storing K. With scaled differences
delta_ijd = (x_id - x_jd) / l_d, r = |delta_ij| and Matern-5/2 k = s (1 + sqrt5 r + 5/3 r^2) exp(-sqrt5 r):
    dk/dl_d = (5 s / 3) (1 + sqrt5 r) exp(-sqrt5 r) delta_ijd^2 / l_d,     dk/ds = k / s.
Inputs: x [N, D] (inputs normalised to the unit cube), lengthscale [D], outputscale (float), alpha [N].
Returns (grad_lengthscale [D], grad_outputscale [1]), fp32.
"""
import torch

META = {
    "name": "matern52_hyper_grad",
    "level": 2,
    "category": "gaussian-process",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 40, "D": 8},
        "ragged": {"N": 77, "D": 5},
        "large": {"N": 32768, "D": 8},
    },
    "baseline_notes": "A program per 16 rows loops over column tiles of 32 in fp32 with coordinate-major tiles: "
                      "[DP, 16, 32] scaled pair differences, r^2 summed over the in-thread coordinate axis, r, "
                      "exp(-sqrt5 r), the weight alpha_i alpha_j exp(...), and register accumulators [DP, 16, 32] "
                      "(lengthscales) and [16, 32] (outputscale) reduced once at the end into one fp64 atomic add "
                      "per program (D + 1 lanes); a one-program kernel scales the sums. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x uniform in [0, 1]^D, fitted-looking ARD lengthscales, outputscale, alpha (a smooth part plus noise)."""
    s = META["sizes"][size]
    n, d = s["N"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.rand(n, d, generator=g)
    lengthscale = 0.25 + 1.25 * torch.rand(d, generator=g)
    outputscale = 0.8
    alpha = torch.sin(3.0 * x[:, 0]) * torch.cos(2.0 * x[:, 1]) + 0.5 * torch.randn(n, generator=g)
    return x.to(device=device, dtype=dt), lengthscale.to(device=device, dtype=dt), outputscale, alpha.to(device=device, dtype=dt)


def reference(x: torch.Tensor, lengthscale: torch.Tensor, outputscale: float, alpha: torch.Tensor) -> tuple:
    ls = lengthscale.double()
    z = x.double() / ls
    a = alpha.double()
    n, d = z.shape
    g_ls = torch.zeros(d, dtype=torch.float64, device=x.device)
    g_os = torch.zeros(1, dtype=torch.float64, device=x.device)
    sqrt5 = 5.0 ** 0.5
    for start in range(0, n, 1024):
        zi = z[start:start + 1024]
        delta2 = (zi[:, None, :] - z[None, :, :]).pow(2)
        r = delta2.sum(-1).sqrt()
        e = torch.exp(-sqrt5 * r)
        w = a[start:start + 1024, None] * a[None, :]
        g_ls += torch.einsum("ij,ijd->d", w * (1.0 + sqrt5 * r) * e, delta2)
        g_os += (w * (1.0 + sqrt5 * r + (5.0 / 3.0) * r * r) * e).sum()
    g_ls = 0.5 * (5.0 * outputscale / 3.0) * g_ls / ls
    return g_ls.to(x.dtype), (0.5 * g_os).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, d = s["N"], s["D"]
    return {"bytes": 4 * (n * d + n + d + d + 1), "flops": n * n * (7 * d + 20)}
