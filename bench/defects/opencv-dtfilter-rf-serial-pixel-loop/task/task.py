"""Domain-transform recursive filter, horizontal pass (Gastal & Oliveira 2011, OpenCV ximgproc DTFilter DTF_RF).

Edge-aware smoothing of a log-luminance plane (the base layer of a local tone mapper), guided by itself.
Along each row: d[j] = 1 + (sigma_s / sigma_r) * |I[j] - I[j-1]|, V[j] = a ** d[j] with
a = exp(-sqrt(2) / sigma_H) for the first of N_ITER = 3 iterations; then a causal pass
F[j] = I[j] + V[j] * (F[j-1] - I[j]) (F[0] = I[0]) and an anti-causal pass
G[j] = F[j] + V[j+1] * (G[j+1] - F[j]) (G[W-1] = F[W-1]). Returns G.
"""
import math

import torch

SIGMA_S = 60.0
SIGMA_R = 0.4
N_ITER = 3


def rf_coefficients() -> tuple:
    """(log2 of the feedback coefficient a, sigma_s / sigma_r) for the first iteration."""
    sigma_h = SIGMA_S * math.sqrt(3.0) * 2.0 ** (N_ITER - 1) / math.sqrt(4.0 ** N_ITER - 1.0)
    return -math.sqrt(2.0) / sigma_h / math.log(2.0), SIGMA_S / SIGMA_R


META = {
    "name": "domain_transform_rf_rows",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 12, "W": 40},
        "ragged": {"H": 13, "W": 45},
        "large": {"H": 3040, "W": 4056},
    },
    "baseline_notes": "One program per row, BLOCK = next_power_of_2(W), the row in registers: the feedback "
                      "coefficients from the row and its shifted neighbours, then the causal and anti-causal "
                      "first-order recurrences as two tl.associative_scan over (coefficient, input) pairs; "
                      "num_warps 4 up to 2048 columns, else 8; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """img [H, W]: natural-log luminance of a smooth scene with hard edges and sensor noise."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    coarse = torch.rand(1, 1, max(2, H // 48 + 2), max(2, W // 48 + 2), generator=g)
    smooth = torch.nn.functional.interpolate(coarse, size=(H, W), mode="bilinear", align_corners=True)[0, 0]
    blocks = torch.rand(1, 1, max(2, H // 96 + 2), max(2, W // 96 + 2), generator=g)
    edges = torch.nn.functional.interpolate(blocks, size=(H, W), mode="nearest")[0, 0]
    img = -7.0 + 4.0 * smooth + 2.5 * edges + 0.02 * torch.randn(H, W, generator=g)
    return (img.to(dt).to(device),)


def reference(img: torch.Tensor) -> torch.Tensor:
    log2_a, ratio = rf_coefficients()
    x = img.double()
    v = torch.exp2(log2_a * (1.0 + ratio * (x[:, 1:] - x[:, :-1]).abs()))   # V[j] for j = 1..W-1
    f = x.clone()
    W = x.shape[1]
    for j in range(1, W):
        f[:, j] = f[:, j] + v[:, j - 1] * (f[:, j - 1] - f[:, j])
    for j in range(W - 2, -1, -1):
        f[:, j] = f[:, j] + v[:, j] * (f[:, j + 1] - f[:, j])
    return f.to(img.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 8 * n, "flops": 14 * n}
