"""Condensed pairwise Euclidean distances (torch.pdist(x, p=2)): the N(N-1)/2 distances of all pairs i < j."""
import torch

META = {
    "name": "pdist_condensed",
    "level": 2,
    "category": "pairwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"N": 70, "D": 40},
        "ragged": {"N": 97, "D": 33},
        "large": {"N": 16384, "D": 512},
    },
    "baseline_notes": "2-D grid of 64 x 64 (i, j) tiles, only tiles on or above the diagonal do work; |xi|^2 + |xj|^2 - "
                      "2 xi.xj with a K-loop of 32-wide tl.dot, sqrt, stored at the condensed index; 4 warps, 3 stages.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [N, D]: N embeddings to cluster (single-linkage / agglomerative clustering input)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    return (torch.randn(s["N"], s["D"], generator=g).to(dt).to(device),)


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.pdist(x.double(), p=2).to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pairs = s["N"] * (s["N"] - 1) // 2
    return {"bytes": 4 * s["N"] * s["D"] + 4 * pairs, "flops": 2 * pairs * s["D"]}
