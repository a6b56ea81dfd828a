"""Cumulative-opportunity accessibility from travel-time surfaces (Conveyal R5 TravelTimeReducer).

R5's router produces, for each origin, the travel time in whole seconds to every destination cell
of the opportunity grid (UNREACHED = Integer.MAX_VALUE when no street/transit path is found); its
TravelTimeReducer turns that surface into accessibility for several cutoffs at once: with R5's step
decay function a destination counts when its travel time is strictly below the cutoff, so
access[o, c] = sum_d opportunities[d] * (tt[o, d] < cutoff_c).

Inputs: tt int32 [B, N] seconds, opportunities fp32 [N] (e.g. jobs per cell), cutoffs int32 [C]
seconds. Output: access fp32 [B, C].
"""
import torch

META = {
    "name": "travel_time_reducer",
    "level": 1,
    "category": "routing",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 3, "N": 5000},
        "ragged": {"B": 5, "N": 3333},
        "large": {"B": 16, "N": 6_000_000},
    },
    "baseline_notes": "Grid (origins, 64 slices of the destinations); each program streams its slice of the "
                      "origin's travel-time row and the opportunity grid in blocks of 1024 cells, keeps per-cutoff "
                      "partial sums in a [1024, 8] register accumulator, reduces it once and adds the 6 sums into "
                      "the output with one vector atomic. 4 warps, no autotune.",
    "deterministic": True,
}
UNREACHED = 2**31 - 1
CUTOFF_MINUTES = (15, 30, 45, 60, 90, 120)
REGION_M = 80_000.0                       # side of the analysis region, metres


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Destination cells scattered over an 80 km region, origins inside it; travel time = network detour x
    distance at a door-to-door speed of 6-14 m/s plus 2-10 min of access/waiting, ~4% of cells unreached."""
    s = META["sizes"][size]
    b, n = s["B"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cells = torch.rand(n, 2, generator=g) * REGION_M
    origins = 0.2 * REGION_M + 0.6 * REGION_M * torch.rand(b, 2, generator=g)
    tt = torch.empty(b, n, dtype=torch.int32)
    speed = 6.0 + 8.0 * torch.rand(n, generator=g)
    wait = 120.0 + 480.0 * torch.rand(n, generator=g)
    for o in range(b):
        dist = torch.linalg.vector_norm(cells - origins[o], dim=1)
        tt[o] = (1.3 * dist / speed + wait).to(torch.int32)
    tt[torch.rand(b, n, generator=g) < 0.04] = UNREACHED
    jobs = torch.where(torch.rand(n, generator=g) < 0.35,
                       torch.empty(n).exponential_(1.0 / 40.0, generator=g), torch.zeros(n))
    cutoffs = torch.tensor([60 * m for m in CUTOFF_MINUTES], dtype=torch.int32)
    return tt.to(device), jobs.to(device=device, dtype=dt), cutoffs.to(device)


def reference(tt: torch.Tensor, opportunities: torch.Tensor, cutoffs: torch.Tensor) -> torch.Tensor:
    out = torch.zeros(tt.shape[0], cutoffs.shape[0], dtype=torch.float64, device=tt.device)
    w = opportunities.double()
    for c in range(cutoffs.shape[0]):
        out[:, c] = torch.where(tt < cutoffs[c], w[None, :], 0.0).sum(dim=1)
    return out.to(opportunities.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["B"] * s["N"] + 4 * s["N"], "flops": 3 * len(CUTOFF_MINUTES) * s["B"] * s["N"]}
