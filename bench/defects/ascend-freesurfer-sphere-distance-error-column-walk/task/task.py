"""Metric-distortion (distance) error of FreeSurfer's spherical mapping (mrisComputeDistanceError).

mris_sphere / mris_register keep, for every vertex, the distances to its extended (sampled
nbhd_size-ring) neighbourhood: dist_orig[v, n] measured once on the original white/smoothwm surface
and dist[v, n] on the current sphere, n < vtotal[v]. Each energy evaluation of the line search sums
    v_sse[v] = sum_n (dist_scale * dist[v, n] - dist_orig[v, n])^2,   sse = sum_v v_sse[v]
where dist_scale = sqrt(orig_area / total_area). The port stores the neighbourhoods as a padded
[V, K] table: slots n >= vtotal[v] hold dist_orig = UNFOUND_DIST (1e6, FreeSurfer's "no neighbour"
value, skipped by the `dist_orig >= UNFOUND_DIST` test) and dist = 0.
Returns (v_sse fp32 [V] (parms->dist_error), sse fp32 [1]).
"""
import torch

META = {
    "name": "sphere_distance_error",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"V": 150, "K": 64, "max_nbrs": 54},
        "ragged": {"V": 333, "K": 40, "max_nbrs": 37},
        "large": {"V": 140000, "K": 64, "max_nbrs": 54},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 64 vertices; each block loads "
                      "the [64, K] rows of dist and dist_orig as contiguous 2-D tiles, masks the UNFOUND slots, "
                      "sums the squared residuals along the row and stores v_sse; each program writes one "
                      "partial sum and a one-program kernel adds the 40 partials. No autotune.",
    "deterministic": True,
}
UNFOUND_DIST = 1.0e6
VERTEX_SPACING = 0.95  # mm, a 140k-vertex hemisphere mapped to a 100 mm sphere


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dist [V, K], dist_orig [V, K] fp32 (padded with 0 / UNFOUND_DIST), dist_scale (float)."""
    s = META["sizes"][size]
    n, k, max_nbrs = s["V"], s["K"], s["max_nbrs"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    # vtotal: the 1-ring (5-7) plus up to 8 sampled vertices per further ring, so ~40..max_nbrs
    vtotal = torch.randint(max_nbrs - 14, max_nbrs + 1, (n,), generator=g)
    slot = torch.arange(k)[None, :]
    ring = 1.0 + (slot.clamp(min=6) - 6) // 8
    d0 = VERTEX_SPACING * ring * (0.8 + 0.4 * torch.rand(n, k, generator=g))
    dist_scale = 1.03
    d = d0 / dist_scale * (1.0 + 0.08 * torch.randn(n, k, generator=g))
    valid = slot < vtotal[:, None]
    dist_orig = torch.where(valid, d0, torch.full_like(d0, UNFOUND_DIST))
    dist = torch.where(valid, d, torch.zeros_like(d))
    return dist.to(dt).to(device), dist_orig.to(dt).to(device), dist_scale


def reference(dist: torch.Tensor, dist_orig: torch.Tensor, dist_scale: float) -> tuple:
    d, d0 = dist.double(), dist_orig.double()
    delta = dist_scale * d - d0
    v_sse = torch.where(d0 < UNFOUND_DIST, delta * delta, torch.zeros_like(delta)).sum(dim=1)
    return v_sse.to(dist.dtype), v_sse.sum().reshape(1).to(dist.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 8 * s["V"] * s["K"] + 4 * s["V"], "flops": 4 * s["V"] * s["K"]}
