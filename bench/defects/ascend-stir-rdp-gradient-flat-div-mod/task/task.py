"""Gradient of the Relative Difference Prior (Nuyts et al. 2002) as in STIR's RelativeDifferencePrior (CPU and CUDA).

For an image x [Z, Y, X] with kappa map k, 3x3x3 neighbourhood weights w (centre 0), smoothing gamma and
epsilon > 0, the prior is  beta/2 sum_j sum_{n in N(j)} w_jn k_j k_n (x_j - x_n)^2 / (x_j + x_n + gamma |x_j - x_n| + eps)
and its gradient
    g_j = beta * k_j * sum_{n in N(j)} w_jn k_n (x_j - x_n) (gamma |x_j - x_n| + x_j + 3 x_n + 2 eps)
                                              / (x_j + x_n + gamma |x_j - x_n| + eps)^2
where neighbours outside the image are left out. Used by every MAP-OSEM / preconditioned-gradient sub-iteration.
"""
import math

import torch

META = {
    "name": "rdp_gradient",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-3}},
    "sizes": {
        "small": {"Z": 4, "Y": 6, "X": 10},
        "ragged": {"Z": 5, "Y": 7, "X": 13},
        "large": {"Z": 127, "Y": 344, "X": 344},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over tiles of one plane z x 4 rows y x the "
                      "whole row (BX = next_power_of_2(X)); the 26 neighbours are 26 shifted 2-D tile loads "
                      "of x and kappa with bounds masks on y and x and a scalar plane check; one store per "
                      "tile; no autotune.",
    "deterministic": True,
}
VOXEL_MM = (2.03125, 2.08626, 2.08626)  # Siemens Biograph mMR 344 x 344 x 127 reconstruction grid (z, y, x)


def _weights() -> torch.Tensor:
    """STIR-style inverse-distance weights of the 3x3x3 neighbourhood, relative to the x voxel size."""
    w = torch.zeros(3, 3, 3)
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dz or dy or dx:
                    dist = math.sqrt((dz * VOXEL_MM[0]) ** 2 + (dy * VOXEL_MM[1]) ** 2 + (dx * VOXEL_MM[2]) ** 2)
                    w[dz + 1, dy + 1, dx + 1] = VOXEL_MM[2] / dist
    return w


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """image [Z, Y, X] (an OSEM estimate), kappa [Z, Y, X], weights [3, 3, 3], beta, gamma, eps."""
    s = META["sizes"][size]
    Z, Y, X = s["Z"], s["Y"], s["X"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    zc = torch.linspace(-1.0, 1.0, Z)[:, None, None]
    yc = torch.linspace(-1.0, 1.0, Y)[None, :, None]
    xc = torch.linspace(-1.0, 1.0, X)[None, None, :]
    body = ((xc / 0.8) ** 2 + (yc / 0.6) ** 2 < 1.0).expand(Z, Y, X)
    hot = ((xc - 0.3) ** 2 + (yc + 0.1) ** 2 + zc ** 2 < 0.1 ** 2).expand(Z, Y, X)
    mean = torch.where(body, 1.0, 0.0) + torch.where(hot, 4.0, 0.0)
    img = mean * (0.7 + 0.6 * torch.rand(Z, Y, X, generator=g))  # OSEM noise, exact zeros outside the body
    kappa = torch.sqrt(mean + 0.01) * (0.9 + 0.2 * torch.rand(Z, Y, X, generator=g))
    eps = float(img.max()) * 1e-3
    return (img.to(device=device, dtype=dt), kappa.to(device=device, dtype=dt),
            _weights().to(device=device, dtype=dt), 1.0 / 700.0, 2.0, eps)


def reference(img: torch.Tensor, kappa: torch.Tensor, weights: torch.Tensor, beta: float, gamma: float,
              eps: float) -> torch.Tensor:
    x, k, w = img.double(), kappa.double(), weights.double()
    Z, Y, X = x.shape
    xp = torch.nn.functional.pad(x, (1, 1, 1, 1, 1, 1))
    kp = torch.nn.functional.pad(k, (1, 1, 1, 1, 1, 1))  # kappa 0 outside: those neighbours drop out
    g = torch.zeros_like(x)
    for dz in range(3):
        for dy in range(3):
            for dx in range(3):
                if dz == 1 and dy == 1 and dx == 1:
                    continue
                xn = xp[dz:dz + Z, dy:dy + Y, dx:dx + X]
                kn = kp[dz:dz + Z, dy:dy + Y, dx:dx + X]
                d = x - xn
                ad = d.abs()
                den = x + xn + gamma * ad + eps
                g += w[dz, dy, dx] * kn * d * (gamma * ad + x + 3.0 * xn + 2.0 * eps) / (den * den)
    return (beta * k * g).to(img.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["Z"] * s["Y"] * s["X"]
    return {"bytes": 12 * n, "flops": 26 * 16 * n}
