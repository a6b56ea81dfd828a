"""UMAP fuzzy-simplicial-set edge weights of scanpy's kNN graph (sc.pp.neighbors, method='umap').

scanpy's neighbors() hands the kNN distances to umap's fuzzy_simplicial_set, whose per-cell part is
smooth_knn_dist + compute_membership_strengths (local_connectivity = 1, bandwidth = 1, 64 bisection
steps). For cell i with sorted neighbour distances d[i, 0..k-1] (column 0 is the cell itself, d = 0):
    rho_i   = smallest positive distance of the row (0 when there is none)
    sigma_i = bisection (lo = 0, hi = inf, mid = 1; mid doubles while hi is inf) for
              sum_{j>=1} (d_ij > rho_i ? exp(-(d_ij - rho_i) / sigma) : 1) = log2(k),
              stopping at the first step where |psum - log2(k)| < 1e-5, else after 64 steps;
              then sigma_i = max(sigma_i, 1e-3 * mean_j d_ij) when rho_i > 0
    w_ij    = 0 for j = 0 (self), 1 where d_ij - rho_i <= 0, else exp(-(d_ij - rho_i) / sigma_i)
Returns w [n_cells, k] fp32, the values of the directed connectivity matrix before symmetrisation.
(When rho_i = 0 every weight is 1 or 0 whatever sigma_i is, so umap's global-mean floor is not needed.)
"""
import math

import torch

META = {
    "name": "umap_knn_membership",
    "level": 2,
    "category": "graph",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-4, "rtol": 1e-3}},
    "sizes": {
        "small": {"cells": 40, "k": 15},
        "ragged": {"cells": 77, "k": 15},
        "large": {"cells": 1_000_000, "k": 15},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 128 cells: one [128, 16] tile of "
                      "distances per block (k = 15 padded to 16 lanes), rho by a masked row min, 64 bisection "
                      "steps on per-cell lo/hi/mid vectors with a done flag, then the weights; one load and one "
                      "store per block, no autotune.",
    "deterministic": True,
}
N_ITER = 64
TOL = 1e-5
MIN_K_DIST_SCALE = 1e-3


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """knn_dists [cells, k]: ascending Euclidean distances in 50-PC space, column 0 the cell itself (0)."""
    s = META["sizes"][size]
    n, k = s["cells"], s["k"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    scale = 4.0 + 8.0 * torch.rand(n, 1, generator=g)        # local density varies from cell to cell
    gaps = torch.rand(n, k - 2, generator=g).pow(2.0) * 0.4 * scale / k
    first = scale * (0.3 + 0.4 * torch.rand(n, 1, generator=g))
    d = torch.cumsum(torch.cat([first, gaps], dim=1), dim=1)
    d[torch.rand(n, generator=g) < 0.02, 1:3] = 0.0           # a few duplicate cells (zero distances)
    d, _ = torch.sort(d, dim=1)
    dists = torch.cat([torch.zeros(n, 1), d], dim=1)
    return (dists.to(dt).to(device),)


def reference(knn_dists: torch.Tensor) -> torch.Tensor:
    d = knn_dists.double()
    n, k = d.shape
    target = math.log2(k)
    pos = torch.where(d > 0, d, torch.full_like(d, float("inf")))
    rho = pos.min(dim=1).values
    rho = torch.where(torch.isinf(rho), torch.zeros_like(rho), rho)
    lo = torch.zeros(n, dtype=torch.float64, device=d.device)
    hi = torch.full_like(lo, float("inf"))
    mid = torch.ones_like(lo)
    done = torch.zeros(n, dtype=torch.bool, device=d.device)
    diff = d[:, 1:] - rho[:, None]
    for _ in range(N_ITER):
        psum = torch.where(diff > 0, torch.exp(-diff / mid[:, None]), torch.ones_like(diff)).sum(dim=1)
        done = done | ((psum - target).abs() < TOL)
        upper = psum > target
        new_hi = torch.where(upper, mid, hi)
        new_lo = torch.where(upper, lo, mid)
        new_mid = torch.where(torch.isinf(new_hi), mid * 2.0, (new_lo + new_hi) / 2.0)
        lo = torch.where(done, lo, new_lo)
        hi = torch.where(done, hi, new_hi)
        mid = torch.where(done, mid, new_mid)
    floor = MIN_K_DIST_SCALE * d.mean(dim=1)
    sigma = torch.where((rho > 0) & (mid < floor), floor, mid)
    full = d - rho[:, None]
    w = torch.where(full > 0, torch.exp(-full / sigma[:, None]), torch.ones_like(full))
    w[:, 0] = 0.0
    return w.to(knn_dists.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, k = s["cells"], s["k"]
    return {"bytes": 8 * n * k, "flops": 6 * N_ITER * n * k}
