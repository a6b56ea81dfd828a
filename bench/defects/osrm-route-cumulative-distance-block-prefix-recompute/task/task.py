"""Cumulative along-route distance of OSRM route / map-matching geometries.

OSRM keeps coordinates as fixed-point int32 micro-degrees (util::Coordinate, COORDINATE_PRECISION
1e6) and measures a segment with util::coordinate_calculation::greatCircleDistance, the
equirectangular approximation: x = dlon * cos((lat1 + lat2) / 2), y = dlat,
d = hypot(x, y) * EARTH_RADIUS (6,372,797.56 m), angles in radians. The annotation and
map-matching code needs, for every shape point, the distance travelled along the geometry up to
that point (the running sum of those segment lengths).

Input: coords int32 [R, L, 2] (lon, lat) in micro-degrees, R traces of L points each.
Output: cum fp32 [R, L], cum[r, 0] = 0, cum[r, i] = cum[r, i - 1] + d(p[r, i - 1], p[r, i]) metres.
"""
import math

import torch

META = {
    "name": "route_cumulative_distance",
    "level": 2,
    "category": "routing",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"R": 3, "L": 1500},
        "ragged": {"R": 5, "L": 1111},
        "large": {"R": 1024, "L": 16384},
    },
    "baseline_notes": "One program per trace walks its points in blocks of 512: each block's segment lengths "
                      "(equirectangular great-circle in fp32 from the int32 micro-degree differences), an in-block "
                      "tl.cumsum plus the running total carried from the previous block, one store. 4 warps, "
                      "no autotune.",
    "deterministic": True,
}
EARTH_RADIUS = 6372797.560856          # metres, OSRM's coordinate_calculation::EARTH_RADIUS
RAD_PER_MICRODEGREE = math.pi / 180.0 * 1e-6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """R GPS-like traces at 1 Hz through central Europe: a random walk with smoothly turning heading and
    vehicle speeds of 3-30 m/s, rounded to fixed-point micro-degrees."""
    s = META["sizes"][size]
    r, n = s["R"], s["L"]
    g = torch.Generator().manual_seed(seed)
    lat0 = 47.0 + 6.0 * torch.rand(r, 1, generator=g, dtype=torch.float64)
    lon0 = 6.0 + 8.0 * torch.rand(r, 1, generator=g, dtype=torch.float64)
    heading = 2 * math.pi * torch.rand(r, 1, generator=g, dtype=torch.float64) \
        + torch.cumsum(0.15 * torch.randn(r, n, generator=g, dtype=torch.float64), dim=1)
    speed = 3.0 + 27.0 * torch.rand(r, n, generator=g, dtype=torch.float64)
    speed[:, 0] = 0.0
    step_lat = torch.cumsum(speed * torch.cos(heading), dim=1) / 111_320.0
    lat = lat0 + step_lat
    lon = lon0 + torch.cumsum(speed * torch.sin(heading) / (111_320.0 * torch.cos(torch.deg2rad(lat))), dim=1)
    coords = torch.stack([torch.round(lon * 1e6), torch.round(lat * 1e6)], dim=-1).to(torch.int32)
    return (coords.contiguous().to(device),)


def reference(coords: torch.Tensor) -> torch.Tensor:
    lon = coords[..., 0].to(torch.int64)
    lat = coords[..., 1].to(torch.int64)
    dlon = (lon[:, 1:] - lon[:, :-1]).double() * RAD_PER_MICRODEGREE
    dlat = (lat[:, 1:] - lat[:, :-1]).double() * RAD_PER_MICRODEGREE
    mid = (lat[:, 1:] + lat[:, :-1]).double() * (0.5 * RAD_PER_MICRODEGREE)
    seg = torch.hypot(dlon * torch.cos(mid), dlat) * EARTH_RADIUS
    cum = torch.zeros(coords.shape[0], coords.shape[1], dtype=torch.float64, device=coords.device)
    cum[:, 1:] = torch.cumsum(seg, dim=1)
    return cum.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["R"] * s["L"]
    return {"bytes": 12 * n, "flops": 16 * n}
