"""Spherical-harmonic coefficients to a spherical function: DIPY sh_to_sf / CsdFit.odf(sphere).

After constrained spherical deconvolution each voxel holds the fODF as real even-order SH coefficients
(DIPY's descoteaux07 basis, sh_order_max = 8 -> K = 45 coefficients). To find peaks or render glyphs the
fODF is sampled on a sphere of S vertices (repulsion724 in DIPY's peaks_from_model):
    sf[n, s] = sum_k sh[n, k] * B[k, s]
where B = sh_to_sf_matrix(sphere, sh_order_max=8) is the [K, S] basis matrix (the layout DIPY returns, so
that sf = sh @ B). Inputs: sh [N, K] fp32 (brain-masked voxels), B [K, S] fp32. Output sf [N, S] fp32.
The sphere here is a Fibonacci point set of S directions, not DIPY's repulsion sphere; the basis values
are the real descoteaux07 functions of those directions.
"""
import math

import torch

META = {
    "name": "sh_to_sf",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 24, "order": 8, "S": 100},
        "ragged": {"N": 37, "order": 6, "S": 181},
        "large": {"N": 228483, "order": 8, "S": 724},
    },
    "baseline_notes": "Persistent grid of 20 programs (the A2's AI cores) looping over 128-voxel x 128-vertex "
                      "output tiles; the K = 45 coefficients are walked in steps of 16 (masked to zero past K) "
                      "and each step is one tl.dot of an [128, 16] coefficient tile with a [16, 128] basis tile "
                      "into an fp32 accumulator on the cube unit; one store per tile. No autotune.",
    "deterministic": True,
}


def _fibonacci_sphere(n: int) -> tuple:
    """Polar and azimuth angles of n quasi-uniform directions."""
    i = torch.arange(n, dtype=torch.float64) + 0.5
    theta = torch.acos(1.0 - 2.0 * i / n)
    phi = torch.remainder(math.pi * (1.0 + math.sqrt(5.0)) * i, 2.0 * math.pi)
    return theta, phi


def real_sh_descoteaux07(order: int, theta: torch.Tensor, phi: torch.Tensor) -> torch.Tensor:
    """[len(theta), K] real symmetric SH basis (even l <= order, m = -l..l, DIPY's index order)."""
    x = torch.cos(theta)
    sx = torch.sqrt(torch.clamp(1.0 - x * x, min=0.0))
    # associated Legendre P_l^m(x) for 0 <= m <= l <= order (no Condon-Shortley phase)
    P = {}
    for m in range(order + 1):
        pmm = torch.ones_like(x)
        for k in range(1, m + 1):
            pmm = pmm * (2 * k - 1) * sx
        P[(m, m)] = pmm
        if m + 1 <= order:
            P[(m + 1, m)] = x * (2 * m + 1) * pmm
        for l in range(m + 2, order + 1):
            P[(l, m)] = ((2 * l - 1) * x * P[(l - 1, m)] - (l + m - 1) * P[(l - 2, m)]) / (l - m)
    cols = []
    for l in range(0, order + 1, 2):
        for m in range(-l, l + 1):
            am = abs(m)
            norm = math.sqrt((2 * l + 1) / (4 * math.pi) * math.factorial(l - am) / math.factorial(l + am))
            y = norm * P[(l, am)]
            if m < 0:
                y = math.sqrt(2.0) * y * torch.cos(am * phi)
            elif m > 0:
                y = math.sqrt(2.0) * y * torch.sin(am * phi)
            cols.append(y)
    return torch.stack(cols, dim=-1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """sh [N, K]: fODFs of one to three fibre populations per voxel (sharp lobes); B [K, S]."""
    s = META["sizes"][size]
    n, order, n_dirs = s["N"], s["order"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    theta, phi = _fibonacci_sphere(n_dirs)
    basis = real_sh_descoteaux07(order, theta, phi).T.contiguous()          # [K, S]
    ls = torch.tensor([l for l in range(0, order + 1, 2) for _ in range(2 * l + 1)], dtype=torch.float64)
    kernel = torch.exp(-0.035 * ls * (ls + 1.0))                            # lobe sharpness per degree
    sh = torch.zeros(n, basis.shape[0], dtype=torch.float64)
    n_fib = torch.randint(1, 4, (n,), generator=g)
    for f in range(3):
        u = torch.randn(n, 3, generator=g, dtype=torch.float64)
        u = u / u.norm(dim=1, keepdim=True)
        th = torch.acos(u[:, 2].clamp(-1.0, 1.0))
        ph = torch.atan2(u[:, 1], u[:, 0])
        w = torch.rand(n, generator=g, dtype=torch.float64) * 0.7 + 0.3
        w = torch.where(n_fib > f, w, torch.zeros_like(w))
        sh += w[:, None] * kernel[None, :] * real_sh_descoteaux07(order, th, ph)
    sh[:, 0] += 0.05 / (2.0 * math.sqrt(math.pi))                           # small isotropic part
    return sh.to(dt).to(device), basis.to(dt).to(device)


def reference(sh: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    return (sh.double() @ B.double()).to(sh.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    k = (s["order"] + 1) * (s["order"] + 2) // 2
    return {"bytes": 4 * (s["N"] * k + k * s["S"] + s["N"] * s["S"]), "flops": 2 * s["N"] * k * s["S"]}
