"""Sweep-and-prune broadphase, counting pass (PhysX GPU broadphase of an Isaac Lab style scene).

All shapes of all environments live in one physics scene, the environments on a square grid
(env_spacing apart). The broadphase sorts the shapes' world AABBs by their lower x bound and sweeps:
shape i (in sorted order) is a candidate partner of every later shape j whose x interval starts
before i's ends (lo_x[j] <= hi_x[i], lo_x[j] >= lo_x[i] holds by the sort) and whose y and z
intervals overlap i's. The counting pass returns, per sorted shape, the number of such later
partners; a prefix sum of it sizes the pair buffer that the fill pass writes.

bounds is SoA, [6, N] fp32: rows lo_x, lo_y, lo_z, hi_x, hi_y, hi_z, columns sorted by lo_x.
Returns counts [N] int32.
"""
import torch

META = {
    "name": "sap_broadphase_count",
    "level": 2,
    "category": "physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"envs": 9, "shapes": 12},
        "ragged": {"envs": 7, "shapes": 11},
        "large": {"envs": 4096, "shapes": 16},
    },
    "baseline_notes": "One program per 64 sorted shapes; the block's reach is the largest hi_x among its "
                      "rows, and the program sweeps 64-wide partner tiles from its own tile while the tile's "
                      "first lo_x is within reach (sorted lo_x: every later tile is out of reach), testing "
                      "x/y/z overlap on a [64, 64] tile and summing the hits per row. 8 warps, no autotune.",
    "deterministic": True,
}
ENV_SPACING = 2.5   # metres between environment origins (Isaac Lab's InteractiveSceneCfg.env_spacing)
ENV_RADIUS = 0.6    # shapes of one environment lie within +-0.6 m of its origin in x and y


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Sorted SoA bounds [6, envs * shapes]: a robot's links and loose objects per environment."""
    s = META["sizes"][size]
    n_env, per_env = s["envs"], s["shapes"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    side = int(n_env ** 0.5 + 0.999)
    env = torch.arange(n_env)
    origin = torch.stack([(env % side).float(), (env // side).float()], dim=1) * ENV_SPACING
    n = n_env * per_env
    center = torch.empty(n, 3)
    center[:, :2] = origin.repeat_interleave(per_env, 0) + (torch.rand(n, 2, generator=g) * 2 - 1) * ENV_RADIUS
    center[:, 2] = torch.rand(n, generator=g) * 1.2
    half = 0.03 + torch.rand(n, 3, generator=g) * 0.22
    lo, hi = center - half, center + half
    order = torch.argsort(lo[:, 0], stable=True)
    bounds = torch.cat([lo[order].t(), hi[order].t()], dim=0).contiguous()
    return (bounds.to(device=device, dtype=dt),)


def reference(bounds: torch.Tensor) -> torch.Tensor:
    b = bounds.double()
    n = b.shape[1]
    lo, hi = b[:3], b[3:]
    counts = torch.zeros(n, dtype=torch.int64, device=b.device)
    cols = torch.arange(n, device=b.device)
    for start in range(0, n, 2048):
        rows = cols[start:start + 2048]
        stop = int(torch.searchsorted(lo[0], hi[0][rows].max(), right=True))  # later columns start past reach
        part = cols[start:max(stop, start + 1)]
        hit = (part[None, :] > rows[:, None]) & (lo[0][part][None, :] <= hi[0][rows, None])
        for ax in (1, 2):
            hit &= (lo[ax][part][None, :] <= hi[ax][rows, None]) & (lo[ax][rows, None] <= hi[ax][part][None, :])
        counts[start:start + 2048] = hit.sum(dim=1)
    return counts.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["envs"] * s["shapes"]
    return {"bytes": 24 * n + 4 * n, "flops": 10 * n * 512}
