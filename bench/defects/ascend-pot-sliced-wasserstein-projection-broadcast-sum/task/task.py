"""Random-direction projections of sliced Wasserstein (POT ot.sliced_wasserstein_distance / ot.sliced.get_random_projections).

POT draws n_projections Gaussian directions in R^d, normalises each column to unit length, and projects
both point clouds onto them before sorting each projected cloud along the samples:
    proj[i, l] = sum_k X[i, k] * theta[k, l],   theta[:, l] = g[:, l] / |g[:, l]|
Here X stacks the source and target clouds ([n_s + n_t, d], fp32 features) and theta [d, L] is the
already-normalised direction matrix; the per-projection sort and the 1-D Wasserstein that follow are
outside this kernel. Returns proj [N, L] fp32.
"""
import torch

META = {
    "name": "sliced_wasserstein_projection",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"N": 48, "D": 24, "L": 20},
        "ragged": {"N": 77, "D": 40, "L": 33},
        "large": {"N": 65536, "D": 256, "L": 512},
    },
    "baseline_notes": "Programs (the 910B's 20 AI cores) loop over 128x128 output tiles; the K loop "
                      "loads a [128, 32] block of X and a [32, 128] block of theta and accumulates "
                      "them with tl.dot on the cube unit (fp32 accumulator), one store per tile; no "
                      "autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """X [N, D] (two clouds of features stacked), theta [D, L] unit-norm columns."""
    s = META["sizes"][size]
    n, d, nproj = s["N"], s["D"], s["L"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    half = n // 2
    xs = torch.randn(half, d, generator=g)
    xt = 0.5 * torch.randn(n - half, d, generator=g) + 1.0
    x = torch.cat([xs, xt], dim=0)
    theta = torch.randn(d, nproj, generator=g)
    theta = theta / theta.pow(2).sum(0, keepdim=True).sqrt()
    return x.to(dt).to(device), theta.to(dt).to(device)


def reference(x: torch.Tensor, theta: torch.Tensor) -> torch.Tensor:
    return (x.double() @ theta.double()).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, d, nproj = s["N"], s["D"], s["L"]
    return {"bytes": 4 * (n * d + d * nproj + n * nproj), "flops": 2 * n * d * nproj}
