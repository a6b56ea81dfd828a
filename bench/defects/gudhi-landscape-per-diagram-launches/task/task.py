"""Persistence landscapes of a batch of persistence diagrams (GUDHI representations.Landscape).

For every diagram point (b, d) the tent function is max(0, (d - b)/2 - |t - (b + d)/2|); the k-th
landscape at t is the k-th largest tent value (0 when the diagram has fewer than k points). GUDHI
samples t on x = linspace(lo, hi, resolution), keeps num_landscapes = 5 layers (its default) and
returns sqrt(2) * landscapes, layer-major, flattened: [n_diagrams, num_landscapes * resolution].
The diagrams are packed: `points` [total, 2] (birth, death) fp32, diagram i at rows
offsets[i]:offsets[i+1] (a diagram may be empty); lo, hi is the sample range fitted on the whole set
(smallest birth, largest death), as Landscape.fit does.
"""
import math

import torch

META = {
    "name": "persistence_landscape",
    "level": 2,
    "category": "topological_data_analysis",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"diagrams": 5, "min_pts": 0, "max_pts": 45, "resolution": 100},
        "ragged": {"diagrams": 7, "min_pts": 0, "max_pts": 70, "resolution": 37},
        "large": {"diagrams": 5000, "min_pts": 20, "max_pts": 400, "resolution": 100},
    },
    "baseline_notes": "One launch, one program per diagram (grid = n_diagrams): the program reads its point range "
                      "from offsets, covers all samples in one 128-wide block, walks its points in chunks of 32, "
                      "builds the [128, 32] tent tile and merges the chunk's 5 largest values per sample into five "
                      "running layers (max / argmax extraction + insertion); 4 warps, no autotune.",
    "deterministic": True,
}
NUM_LANDSCAPES = 5


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """ORBIT5K-like H1 diagrams, packed: points [total, 2], offsets int32 [n+1], lo, hi, layers, resolution."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    counts = torch.randint(s["min_pts"], s["max_pts"] + 1, (s["diagrams"],), generator=g)
    total = int(counts.sum())
    births = torch.rand(total, generator=g) * 0.3
    pers = torch.empty(total).exponential_(25.0, generator=g) + 0.2 * torch.rand(total, generator=g) ** 8
    points = torch.stack([births, births + pers], dim=1).to(dt)
    offsets = torch.zeros(s["diagrams"] + 1, dtype=torch.int32)
    offsets[1:] = torch.cumsum(counts, 0).to(torch.int32)
    lo = float(points[:, 0].min()) if total else 0.0
    hi = float(points[:, 1].max()) if total else 1.0
    return points.to(device), offsets.to(device), lo, hi, NUM_LANDSCAPES, s["resolution"]


def reference(points: torch.Tensor, offsets: torch.Tensor, lo: float, hi: float, num_landscapes: int,
              resolution: int) -> torch.Tensor:
    pts = points.double()
    t = torch.linspace(lo, hi, resolution, dtype=torch.float64, device=pts.device)
    bounds = offsets.tolist()
    n = len(bounds) - 1
    out = torch.zeros(n, num_landscapes, resolution, dtype=torch.float64, device=pts.device)
    counts = torch.tensor([bounds[i + 1] - bounds[i] for i in range(n)])
    width = max(int(counts.max()) if n else 0, num_landscapes)
    for c0 in range(0, n, 256):  # pad a group of diagrams with zero tents, take the top layers
        c1 = min(c0 + 256, n)
        mid = torch.zeros(c1 - c0, width, dtype=torch.float64, device=pts.device)
        half = torch.full((c1 - c0, width), -1.0, dtype=torch.float64, device=pts.device)
        for i in range(c0, c1):
            dgm = pts[bounds[i]:bounds[i + 1]]
            mid[i - c0, :dgm.shape[0]] = 0.5 * (dgm[:, 0] + dgm[:, 1])
            half[i - c0, :dgm.shape[0]] = 0.5 * (dgm[:, 1] - dgm[:, 0])
        tents = (half[:, None, :] - (t[None, :, None] - mid[:, None, :]).abs()).clamp(min=0)  # [g, R, P]
        top = tents.topk(num_landscapes, dim=2).values  # [g, R, K], descending
        out[c0:c1] = top.permute(0, 2, 1)
    return (math.sqrt(2.0) * out).reshape(n, -1).to(points.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pts = s["diagrams"] * (s["min_pts"] + s["max_pts"]) // 2
    return {"bytes": 8 * pts + 4 * s["diagrams"] * NUM_LANDSCAPES * s["resolution"],
            "flops": 30 * pts * s["resolution"]}
