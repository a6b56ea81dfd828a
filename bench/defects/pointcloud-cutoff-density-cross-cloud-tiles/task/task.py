"""Cosine-cutoff neighbour density of batched point clouds (the radius graph of torch_cluster.radius_graph with a
batch vector, reduced per point with SchNet's CosineCutoff): rho_i = sum over j != i of the same cloud with
|p_i - p_j| < r of 0.5 * (cos(pi * d_ij / r) + 1)."""
import math

import torch

META = {
    "name": "pointcloud_cutoff_density",
    "level": 2,
    "category": "pairwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"counts": [50, 37, 90], "r": 0.5},
        "ragged": {"counts": [13, 129, 1, 66, 77], "r": 0.45},
        "large": {"counts": [1024] * 32, "r": 0.2},
    },
    "baseline_notes": "64-point query tiles; each program walks only the key blocks of the clouds its rows belong to "
                      "(from the CSR ptr of the sorted batch vector), 64-point key blocks, 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pos [N, 3] (ModelNet-style clouds normalised to the unit ball), batch [N] int32 sorted, ptr [B+1] int32,
    and the cutoff radius r."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.tensor(s["counts"], dtype=torch.int64)
    n = int(counts.sum())
    pos = torch.randn(n, 3, generator=g)
    pos = pos / pos.norm(dim=1, keepdim=True).clamp_min(1e-6) * torch.rand(n, 1, generator=g).pow(1.0 / 3.0)
    batch = torch.repeat_interleave(torch.arange(len(counts)), counts).to(torch.int32)
    ptr = torch.zeros(len(counts) + 1, dtype=torch.int32)
    ptr[1:] = torch.cumsum(counts, 0).to(torch.int32)
    return pos.to(dt).to(device), batch.to(device), ptr.to(device), float(s["r"])


def reference(pos: torch.Tensor, batch: torch.Tensor, ptr: torch.Tensor, r: float) -> torch.Tensor:
    out = torch.zeros(pos.shape[0], dtype=torch.float64, device=pos.device)
    bounds = ptr.tolist()
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        p = pos[lo:hi].double()
        d = torch.cdist(p, p)
        w = torch.where(d < r, 0.5 * (torch.cos(d * (math.pi / r)) + 1.0), torch.zeros_like(d))
        w.fill_diagonal_(0.0)
        out[lo:hi] = w.sum(dim=1)
    return out.to(pos.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    counts = META["sizes"][size]["counts"]
    n = sum(counts)
    pairs = sum(c * c for c in counts)
    return {"bytes": 12 * n + 4 * n + 4 * (len(counts) + 1) + 4 * n, "flops": 12 * pairs}
