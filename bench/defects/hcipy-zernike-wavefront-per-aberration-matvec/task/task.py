"""Zernike wavefront synthesis: W[b] = sum_j c[b, j] Z_j over a circular pupil (HCIPy ModeBasis.linear_combination).

Z_j are the Noll-ordered, Noll-normalised Zernike polynomials sampled on an NP x NP grid across the
pupil diameter (zero outside the unit disk), as HCIPy's make_zernike_basis or aotools' zernikeArray
build them. Each row of c is one aberration (radians); the output is the batch of phase maps [B, NP, NP].
"""
import math

import torch

META = {
    "name": "zernike_wavefront_synthesis",
    "level": 2,
    "category": "optics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 4, "J": 10, "NP": 8},
        "ragged": {"B": 5, "J": 21, "NP": 13},
        "large": {"B": 1024, "J": 66, "NP": 256},
    },
    "baseline_notes": "2-D grid of 128 x 128 output tiles (aberration rows x pupil pixels): the mode axis is "
                      "walked in steps of 16, a [128, 16] coefficient tile times a [16, 128] basis tile with "
                      "tl.dot into an fp32 accumulator (tf32 operands), one masked store; 8 warps, no autotune.",
    "deterministic": True,
}


def noll_to_nm(j: int) -> tuple[int, int]:
    """Noll index j >= 1 to radial order n and signed azimuthal frequency m (cos for even j, sin for odd)."""
    n = int((math.sqrt(8 * (j - 1) + 1) - 1) // 2)
    p = j - n * (n + 1) // 2
    m = ((p + n % 2) // 2) * 2 - n % 2
    return n, (m if j % 2 == 0 else -m) if m else 0


def zernike_basis(J: int, npix: int) -> torch.Tensor:
    """[J, npix, npix] float64 Noll Zernike modes on the pupil grid."""
    c = (torch.arange(npix, dtype=torch.float64) - (npix - 1) / 2) / (npix / 2)
    y, x = torch.meshgrid(c, c, indexing="ij")
    rho, phi = torch.hypot(x, y), torch.atan2(y, x)
    inside = rho <= 1.0
    modes = []
    for j in range(1, J + 1):
        n, m = noll_to_nm(j)
        a = abs(m)
        radial = torch.zeros_like(rho)
        for s in range((n - a) // 2 + 1):
            w = (-1) ** s * math.factorial(n - s) / (
                math.factorial(s) * math.factorial((n + a) // 2 - s) * math.factorial((n - a) // 2 - s))
            radial += w * rho ** (n - 2 * s)
        if m == 0:
            z = math.sqrt(n + 1) * radial
        elif m > 0:
            z = math.sqrt(2 * (n + 1)) * radial * torch.cos(a * phi)
        else:
            z = math.sqrt(2 * (n + 1)) * radial * torch.sin(a * phi)
        modes.append(torch.where(inside, z, torch.zeros_like(z)))
    return torch.stack(modes)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coefficients [B, J] (radians, falling with radial order), basis [J, NP, NP]."""
    s = META["sizes"][size]
    B, J, NP = s["B"], s["J"], s["NP"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    order = torch.tensor([noll_to_nm(j)[0] for j in range(1, J + 1)], dtype=torch.float64)
    coef = torch.randn(B, J, generator=g, dtype=torch.float64) * (0.8 / (order + 1.0))
    return coef.to(device=device, dtype=dt), zernike_basis(J, NP).to(device=device, dtype=dt)


def reference(coef: torch.Tensor, basis: torch.Tensor) -> torch.Tensor:
    J, NP = basis.shape[0], basis.shape[1]
    w = coef.double() @ basis.double().reshape(J, NP * NP)
    return w.reshape(coef.shape[0], NP, NP).to(coef.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    P = s["NP"] * s["NP"]
    return {"bytes": 4 * (s["B"] * s["J"] + s["J"] * P + s["B"] * P), "flops": 2 * s["B"] * s["J"] * P}
