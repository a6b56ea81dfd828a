"""Evaluate one BabyBear polynomial (p = 15 * 2^27 + 1) in coefficient form at many arbitrary points.

ICICLE-style polynomial evaluate on an arbitrary domain: out[i] = sum_k coeffs[k] * points[i]^k mod p,
computed with Horner's rule over the coefficients (highest degree first). Coefficients and points
are canonical field elements held in int32.
"""
import torch

P = 2013265921

META = {
    "name": "babybear_poly_eval_points",
    "level": 2,
    "category": "polynomial",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"D": 20, "M": 24},
        "ragged": {"D": 29, "M": 47},
        "large": {"D": 4096, "M": 65536},
    },
    "baseline_notes": "BLOCK = 128 points per program as a vector (points converted to Montgomery form once), "
                      "one loop over the D coefficients from the highest: a scalar coefficient load broadcast "
                      "to the block, one 32-bit Montgomery multiply and one modular add per step; 4 warps, "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """coeffs [D] int32 (coefficient of x^k at k), points [M] int32, both canonical BabyBear elements."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    coeffs = torch.randint(0, P, (s["D"],), generator=g, dtype=torch.int64)
    points = torch.randint(0, P, (s["M"],), generator=g, dtype=torch.int64)
    points[:2] = torch.tensor([0, 1])
    return coeffs.to(torch.int32).to(device), points.to(torch.int32).to(device)


def reference(coeffs: torch.Tensor, points: torch.Tensor) -> torch.Tensor:
    x = points.long()
    c = coeffs.long()
    acc = torch.zeros_like(x)
    for k in range(c.shape[0] - 1, -1, -1):
        acc = (acc * x + c[k]) % P
    return acc.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["D"] + 8 * s["M"], "flops": 12 * s["D"] * s["M"]}
