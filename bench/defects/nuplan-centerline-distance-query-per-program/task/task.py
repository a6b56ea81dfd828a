"""Distance from each query pose to the nearest lane centerline of the local vector map.

Lane centerlines come as fixed-length polylines (VectorNet / MTR map format: polylines cut into pieces
of P = 20 points, up to 768 per scene); polyline l has the P - 1 segments (pts[l, j], pts[l, j + 1]).
For each query point q the output is min over all segments of the Euclidean point-to-segment
distance, with the projection parameter clamped to [0, 1] (as nuPlan's map API / shapely distance
to a LineString). Used for the drivable-area / off-centerline term of a sampling planner's score.
"""
import torch

META = {
    "name": "centerline_distance",
    "level": 2,
    "category": "planning",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"Q": 40, "L": 12, "P": 20},
        "ragged": {"Q": 77, "L": 19, "P": 20},
        "large": {"Q": 32768, "L": 768, "P": 20},
    },
    "baseline_notes": "64 queries per program against 64-segment tiles of the flattened segment list: loads each "
                      "segment's end points once per tile (segment -> polyline point via a constexpr divide), "
                      "precomputes its direction and inverse squared length, then a [64, 64] tile of clamped "
                      "projections and a running element-wise min; sqrt of the row min at the end; 4 warps, "
                      "no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """queries [Q, 2], polylines [L, P, 2] (metres, ego-centred, ~150 m around the ego)."""
    s = META["sizes"][size]
    Q, L, P = s["Q"], s["L"], s["P"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    start = (torch.rand(L, 1, 2, generator=g) * 2 - 1) * 150.0
    heading = torch.rand(L, 1, generator=g) * 6.2832 + torch.cumsum(torch.randn(L, P, generator=g) * 0.05, 1)
    step = 1.0 + torch.rand(L, P, 1, generator=g) * 1.5
    delta = torch.stack([torch.cos(heading), torch.sin(heading)], 2) * step
    pts = start + torch.cumsum(delta, 1) - delta[:, :1]
    queries = (torch.rand(Q, 2, generator=g) * 2 - 1) * 120.0
    return queries.to(dt).to(device), pts.to(dt).to(device)


def reference(queries: torch.Tensor, polylines: torch.Tensor) -> torch.Tensor:
    a = polylines[:, :-1].reshape(-1, 2).double()
    ab = polylines[:, 1:].reshape(-1, 2).double() - a
    inv = 1.0 / (ab * ab).sum(1).clamp_min(1e-12)
    out = []
    for q in queries.double().split(1024):
        d = q[:, None, :] - a[None]
        t = ((d * ab[None]).sum(2) * inv[None]).clamp(0.0, 1.0)
        e = d - t[:, :, None] * ab[None]
        out.append((e * e).sum(2).min(1).values.sqrt())
    return torch.cat(out).to(queries.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    segs = s["L"] * (s["P"] - 1)
    return {"bytes": 8 * s["Q"] + 8 * s["L"] * s["P"] + 4 * s["Q"], "flops": 14 * s["Q"] * segs}
