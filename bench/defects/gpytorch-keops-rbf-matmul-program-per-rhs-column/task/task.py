"""RBF kernel-matrix times a block of right-hand sides, the matmul GPyTorch's CG solver calls on a KeOps kernel.

GPyTorch trains an exact GP with batched conjugate gradients (mBCG): every iteration multiplies the
training kernel matrix by a block of T vectors (the residual of y and the Hutchinson probe vectors,
1 + num_trace_samples = 11 columns). With the KeOps backend (gpytorch.kernels.keops.RBFKernel in a
ScaleKernel) the matrix is never stored; each product is evaluated on the fly:
    out[i, t] = outputscale * sum_j exp(-0.5 * sum_d ((x[i, d] - x[j, d]) / lengthscale[d])^2) * rhs[j, t]
Inputs: x [N, D] (standardised training inputs), lengthscale [D] (ARD), outputscale (float),
rhs [N, T]. Returns out [N, T] fp32.
"""
import torch

META = {
    "name": "keops_rbf_matmul",
    "level": 2,
    "category": "gaussian-process",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-2, "rtol": 5e-3}},
    "sizes": {
        "small": {"N": 48, "D": 3, "T": 11},
        "ragged": {"N": 77, "D": 3, "T": 5},
        "large": {"N": 65536, "D": 3, "T": 11},
    },
    "baseline_notes": "A program per 64 rows loops over column tiles of 64: the [64, 64] kernel tile from a static "
                      "loop over the D coordinates (scaled differences, exp), then tl.dot with the [64, 16] rhs "
                      "tile (T padded to 16, default tf32 tensor cores) into a [64, 16] fp32 accumulator; the "
                      "outputscale is applied at the store. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x in the unit cube (3DRoad-like: two map coordinates and altitude), ARD lengthscales, outputscale,
    rhs = [centred targets | Gaussian probe vectors]."""
    s = META["sizes"][size]
    n, d, t = s["N"], s["D"], s["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.rand(n, d, generator=g)
    # fitted 3DRoad-like lengthscales at N = 65536, widened as N shrinks so the small sizes still couple many points
    lengthscale = torch.tensor([0.05, 0.05, 0.2, 0.3, 0.3, 0.3, 0.3, 0.3][:d]) * (65536.0 / n) ** (1.0 / d)
    outputscale = 1.3
    y = torch.sin(6.0 * x[:, 0]) * torch.cos(4.0 * x[:, 1]) + 0.1 * torch.randn(n, generator=g)
    rhs = torch.randn(n, t, generator=g)
    rhs[:, 0] = y - y.mean()
    return x.to(device=device, dtype=dt), lengthscale.to(device=device, dtype=dt), outputscale, rhs.to(device=device, dtype=dt)


def reference(x: torch.Tensor, lengthscale: torch.Tensor, outputscale: float, rhs: torch.Tensor) -> torch.Tensor:
    z = x.double() / lengthscale.double()
    v = rhs.double()
    out = torch.empty_like(v)
    for start in range(0, z.shape[0], 2048):
        d2 = torch.cdist(z[start:start + 2048], z).pow(2)
        out[start:start + 2048] = outputscale * torch.exp(-0.5 * d2) @ v
    return out.to(rhs.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, d, t = s["N"], s["D"], s["T"]
    return {"bytes": 4 * (n * d + 2 * n * t + d), "flops": n * n * (3 * d + 4 + 2 * t)}
