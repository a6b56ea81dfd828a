"""Euclidean distance matrix of a point cloud in Ripser's compressed lower-triangular layout.

Ripser (and ripser.py / Ripser++) read a point cloud, compute all pairwise Euclidean distances and
keep them as a `compressed_lower_distance_matrix`: the entries d(i, j) with j < i, row by row, entry
(i, j) at index i * (i - 1) / 2 + j. The point cloud here is a high-dimensional one (hidden-layer
activations stored in fp16, as in persistent-homology studies of network activations): points
[N, D] fp16. Distances are accumulated in fp32. Returns the condensed distances fp32 [N * (N - 1) / 2].
"""
import math

import torch

META = {
    "name": "rips_lower_distance_matrix",
    "level": 2,
    "category": "topological_data_analysis",
    "dtypes": ["float16"],
    "tolerance": {"float16": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 40, "D": 24},
        "ragged": {"N": 77, "D": 50},
        "large": {"N": 8192, "D": 256},
    },
    "baseline_notes": "Grid (row tile, column tile) of 32x32 tiles, programs above the diagonal return at once; "
                      "each program runs a K loop of 16-wide fp16 tiles, tl.dot for the Gram block plus the two "
                      "squared norms, then d = sqrt(max(|x|^2 + |y|^2 - 2 x.y, 0)) stored at i(i-1)/2 + j for "
                      "j < i. 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A noisy torus embedded in R^D (random orthonormal 4-frame, radii 4 and 2) plus a ReLU-like offset."""
    s = META["sizes"][size]
    n, d = s["N"], s["D"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    theta = torch.rand(n, generator=g) * 2 * math.pi
    phi = torch.rand(n, generator=g) * 2 * math.pi
    base = torch.stack([4 * torch.cos(theta), 4 * torch.sin(theta), 2 * torch.cos(phi), 2 * torch.sin(phi)], 1)
    frame, _ = torch.linalg.qr(torch.randn(d, 4, generator=g))
    offset = torch.rand(d, generator=g) * 0.5
    x = base @ frame.T + offset + 0.05 * torch.randn(n, d, generator=g)
    return (x.to(device=device, dtype=dt),)


def reference(points: torch.Tensor) -> torch.Tensor:
    x = points.double()
    n = x.shape[0]
    parts = []
    for start in range(1, n, 1024):
        rows = torch.arange(start, min(start + 1024, n), device=x.device)
        d = torch.cdist(x[rows], x[: rows[-1] + 1], compute_mode="donot_use_mm_for_euclid_dist")
        cols = torch.arange(int(rows[-1]) + 1, device=x.device)
        parts.append(d[cols[None, :] < rows[:, None]])  # row-major: (i, 0..i-1) for each i
    return torch.cat(parts).to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pairs = s["N"] * (s["N"] - 1) // 2
    return {"bytes": 2 * s["N"] * s["D"] + 4 * pairs, "flops": 3 * pairs * s["D"]}
