"""Ramp filtering of parallel-beam CT projections, the filter step of filtered back-projection
(scikit-image `iradon` / ASTRA FBP: Ram-Lak kernel in the spatial domain, Kak & Slaney eq. 61).

sino is [B, A, D] (slices, projection angles, detector bins); h is the spatial Ram-Lak kernel of
length 2D-1 centred at D-1 (h[0] = 1/4, h[n odd] = -1/(pi n)^2, h[n even] = 0). Each projection row is
convolved linearly (no wrap-around): out[b, a, j] = sum_k h[j - k + D - 1] * sino[b, a, k].
"""
import math

import torch

META = {
    "name": "fbp_ramp_filter",
    "level": 2,
    "category": "matmul",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 3e-3, "rtol": 1e-2}},
    "sizes": {
        "small": {"B": 2, "A": 6, "D": 40},
        "ragged": {"B": 1, "A": 7, "D": 77},
        "large": {"B": 64, "A": 720, "D": 768},
    },
    "baseline_notes": "Projection rows as M = B*A, filtered as a product with the Toeplitz ramp matrix "
                      "H[k, j] = h[j - k + D - 1] gathered tile by tile: tl.dot of 128x32 sinogram tiles and "
                      "32x128 kernel tiles (tf32), fp32 accumulator, 8 warps, 3 stages.",
    "deterministic": True,
}


def ram_lak(D: int) -> torch.Tensor:
    n = torch.arange(-(D - 1), D, dtype=torch.float64)
    h = torch.zeros_like(n)
    h[n == 0] = 0.25
    odd = n.abs().remainder(2) == 1
    h[odd] = -1.0 / (math.pi * n[odd]) ** 2
    return h


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """sino [B, A, D]: smooth non-negative line integrals; h [2D-1]: the Ram-Lak kernel."""
    s = META["sizes"][size]
    B, A, D = s["B"], s["A"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    t = torch.linspace(-1.0, 1.0, D)
    centre = 0.4 * (torch.rand(B, A, 1, generator=g) - 0.5)
    width = 0.3 + 0.4 * torch.rand(B, A, 1, generator=g)
    body = torch.sqrt(torch.clamp(width ** 2 - (t - centre) ** 2, min=0.0))
    sino = body + 0.05 * torch.rand(B, A, D, generator=g)
    return sino.to(dt).to(device), ram_lak(D).to(dt).to(device)


def reference(sino: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
    D = sino.shape[-1]
    k = torch.arange(D, device=sino.device)
    toeplitz = h.double()[k[None, :] - k[:, None] + D - 1]
    return (sino.double() @ toeplitz).to(sino.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    M, D = s["B"] * s["A"], s["D"]
    return {"bytes": 8 * M * D + 4 * (2 * D - 1), "flops": 2 * M * D * D}
