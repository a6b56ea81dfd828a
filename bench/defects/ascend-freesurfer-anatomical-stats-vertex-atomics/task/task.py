"""Per-parcel cortical statistics of one hemisphere (FreeSurfer mris_anatomical_stats -a aparc).

Every vertex carries its parcel index (the colour-table index of its annotation, -1 where the vertex
has none), its white-surface area (the 1/3-sum of the areas of its faces), its TH3 gray-matter volume,
its cortical thickness and its principal curvatures k1 >= k2 (H = (k1 + k2) / 2, K = k1 * k2). Per
parcel the tool reports, as in the aparc.stats table:
    NumVert  number of vertices
    SurfArea sum of vertex areas (mm^2)
    GrayVol  sum of vertex volumes (mm^3)
    ThickAvg mean thickness, ThickStd its standard deviation (divided by NumVert)
    MeanCurv sum |H| * area / NumVert (integrated rectified mean curvature)
    GausCurv sum |K| * area / NumVert (integrated rectified Gaussian curvature)
    FoldInd  sum area * |k1| * (|k1| - |k2|) / 4 pi
    CurvInd  sum area * max(K, 0) / 4 pi
Returns stats [n_labels, 9] fp32 in that column order; parcels without vertices are all zero.
"""
import math

import torch

META = {
    "name": "parcel_anatomical_stats",
    "level": 2,
    "category": "segmented-reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"V": 300, "n_labels": 36},
        "ragged": {"V": 777, "n_labels": 36},
        "large": {"V": 141372, "n_labels": 36},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 64 vertices; each block is "
                      "compared with the 64 (padded) parcel ids as a [64 labels, 64 vertices] one-hot tile "
                      "and the nine per-parcel sums are reduced along the vertex axis into register "
                      "accumulators; each program adds its nine 36-lane vectors to the fp32 table with one "
                      "vector atomic each; a one-program kernel turns the sums into the table. No autotune.",
    "deterministic": True,
}
EXTENT_RADIUS = 100.0  # the sphere the parcels are drawn on, mm


def _fibonacci_sphere(n: int) -> torch.Tensor:
    i = torch.arange(n, dtype=torch.float64) + 0.5
    z = 1.0 - 2.0 * i / n
    r = torch.sqrt((1.0 - z * z).clamp(min=0.0))
    phi = i * math.pi * (3.0 - math.sqrt(5.0))
    return torch.stack([r * torch.cos(phi), r * torch.sin(phi), z], dim=1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """label int32 [V] (-1 = no annotation), area, gray_vol, thickness, k1, k2 fp32 [V], n_labels (int)."""
    s = META["sizes"][size]
    n, n_labels = s["V"], s["n_labels"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xyz = _fibonacci_sphere(n)
    # Voronoi parcels around random seeds; a polar cap stands in for the medial wall (no annotation).
    seeds = torch.nn.functional.normalize(torch.randn(n_labels, 3, generator=g, dtype=torch.float64), dim=1)
    label = (xyz @ seeds.T).argmax(dim=1).to(torch.int32)
    label[xyz[:, 0] > 0.85] = -1
    area = (0.45 + 0.5 * torch.rand(n, generator=g, dtype=torch.float64))
    thickness = (2.5 + 0.6 * torch.randn(n, generator=g, dtype=torch.float64)).clamp(0.0, 5.0)
    gray_vol = area * thickness * (1.0 + 0.1 * torch.randn(n, generator=g, dtype=torch.float64))
    a = 0.25 * torch.randn(n, generator=g, dtype=torch.float64)
    b = 0.25 * torch.randn(n, generator=g, dtype=torch.float64)
    k1, k2 = torch.maximum(a, b), torch.minimum(a, b)
    cast = lambda t: t.to(dt).to(device)  # noqa: E731
    return (label.to(device), cast(area), cast(gray_vol), cast(thickness), cast(k1), cast(k2), n_labels)


def reference(label, area, gray_vol, thickness, k1, k2, n_labels):
    keep = label >= 0
    idx = label[keep].long()
    a, vol, t = area[keep].double(), gray_vol[keep].double(), thickness[keep].double()
    c1, c2 = k1[keep].double(), k2[keep].double()
    H, K = 0.5 * (c1 + c2), c1 * c2
    cols = [torch.ones_like(a), a, vol, t, t * t, H.abs() * a, K.abs() * a,
            a * c1.abs() * (c1.abs() - c2.abs()), a * K.clamp(min=0.0)]
    sums = torch.zeros(n_labels, len(cols), dtype=torch.float64, device=label.device)
    for j, col in enumerate(cols):
        sums[:, j].index_add_(0, idx, col)
    n = sums[:, 0]
    nz = n.clamp(min=1.0)
    mean_t = sums[:, 3] / nz
    std_t = (sums[:, 4] / nz - mean_t * mean_t).clamp(min=0.0).sqrt()
    four_pi = 4.0 * math.pi
    stats = torch.stack([n, sums[:, 1], sums[:, 2], mean_t, std_t, sums[:, 5] / nz, sums[:, 6] / nz,
                         sums[:, 7] / four_pi, sums[:, 8] / four_pi], dim=1)
    stats = torch.where((n > 0)[:, None], stats, torch.zeros_like(stats))
    return stats.to(area.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 24 * s["V"] + 36 * s["n_labels"], "flops": 30 * s["V"]}
