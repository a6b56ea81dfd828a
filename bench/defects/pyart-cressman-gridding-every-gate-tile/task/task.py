"""Cressman gridding of a radar sweep to a Cartesian grid (Py-ART map.grid_from_radars / map_gates_to_grid,
weighting_function="Cressman", roi_func="constant").

Every gate of a PPI sweep sits at ground range s(g) along azimuth az(r): x = s sin(az), y = s cos(az)
(s from the slant range with Py-ART's 4/3-earth antenna_to_cartesian model, elevation 0.5 deg). Each
grid point (x_i, y_j) takes the Cressman-weighted mean of the gates within the radius of influence:
    w = (roi^2 - d^2) / (roi^2 + d^2)  for d^2 < roi^2 (horizontal distance), else 0
    grid = sum w v / sum w,  FILL (-9999) where no gate is within roi (Py-ART masks those points).
Inputs: azimuth [rays] fp32 degrees, ground range [gates] fp32 metres, reflectivity [rays, gates] fp32
dBZ, grid_x [nx] and grid_y [ny] fp32 metres (uniform, radar at the origin), roi (metres).
Output: grid [ny, nx] fp32.
"""
import math

import torch

META = {
    "name": "cressman_gridding",
    "level": 2,
    "category": "weather-radar",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-3}},
    "sizes": {
        "small": {"rays": 24, "gates": 160, "nx": 21, "ny": 21, "spacing": 1000.0},
        "ragged": {"rays": 30, "gates": 150, "nx": 23, "ny": 19, "spacing": 900.0},
        "large": {"rays": 360, "gates": 800, "nx": 401, "ny": 401, "spacing": 500.0},
    },
    "baseline_notes": "Grid of 16x16-point blocks; each program walks the rays and 32-gate chunks of the "
                      "sweep, skips rays and chunks whose segment passes farther than the block's half-diagonal "
                      "plus roi from the block centre, and accumulates the Cressman sums of the rest as "
                      "[256, 32] pair tiles in fp32 registers. 4 warps, no autotune.",
    "deterministic": True,
}
FILL = -9999.0
GATE_M = 250.0
ELEV_DEG = 0.5
ROI_M = 2000.0
EARTH_43 = 4.0 / 3.0 * 6371000.0


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A sweep of storm cells with gate noise, its geometry, and the target grid."""
    s = META["sizes"][size]
    n_rays, n_gates, nx, ny, sp = s["rays"], s["gates"], s["nx"], s["ny"], s["spacing"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    az = (torch.arange(n_rays, dtype=torch.float64) + 0.5) * (360.0 / n_rays)
    az = az + 0.1 * (torch.rand(n_rays, generator=g, dtype=torch.float64) - 0.5)
    rng = (torch.arange(n_gates, dtype=torch.float64) + 0.5) * GATE_M            # slant range
    el = math.radians(ELEV_DEG)
    z = torch.sqrt(rng ** 2 + EARTH_43 ** 2 + 2.0 * rng * EARTH_43 * math.sin(el)) - EARTH_43
    ground = EARTH_43 * torch.asin(rng * math.cos(el) / (EARTH_43 + z))
    gx = ground[None, :] * torch.sin(torch.deg2rad(az))[:, None]
    gy = ground[None, :] * torch.cos(torch.deg2rad(az))[:, None]
    extent = n_gates * GATE_M
    refl = torch.zeros(n_rays, n_gates, dtype=torch.float64)
    for _ in range(6):
        cx, cy = ((torch.rand(2, generator=g, dtype=torch.float64) - 0.5) * extent).tolist()
        width = extent * (0.03 + 0.08 * torch.rand(1, generator=g, dtype=torch.float64).item())
        peak = 20.0 + 35.0 * torch.rand(1, generator=g, dtype=torch.float64).item()
        refl = torch.maximum(refl, peak * torch.exp(-((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * width ** 2)))
    refl = refl + 3.0 * torch.randn(n_rays, n_gates, generator=g, dtype=torch.float64)
    grid_x = (torch.arange(nx, dtype=torch.float64) - (nx - 1) / 2.0) * sp
    grid_y = (torch.arange(ny, dtype=torch.float64) - (ny - 1) / 2.0) * sp
    as_dt = lambda t: t.to(device=device, dtype=dt)
    return as_dt(az), as_dt(ground), as_dt(refl), as_dt(grid_x), as_dt(grid_y), ROI_M


def reference(az: torch.Tensor, ground: torch.Tensor, refl: torch.Tensor, grid_x: torch.Tensor,
              grid_y: torch.Tensor, roi: float) -> torch.Tensor:
    """Py-ART's scatter: each gate adds into the grid points of its roi box (chunks of gates)."""
    dev = refl.device
    theta = torch.deg2rad(az.double())
    gx = (ground.double()[None, :] * torch.sin(theta)[:, None]).reshape(-1)
    gy = (ground.double()[None, :] * torch.cos(theta)[:, None]).reshape(-1)
    val = refl.double().reshape(-1)
    xs, ys = grid_x.double(), grid_y.double()
    nx, ny = xs.numel(), ys.numel()
    x0, y0 = xs[0].item(), ys[0].item()
    dx, dy = (xs[1] - xs[0]).item(), (ys[1] - ys[0]).item()
    wx, wy = int(2.0 * roi / dx) + 3, int(2.0 * roi / dy) + 3
    ox = torch.arange(wx, device=dev)
    oy = torch.arange(wy, device=dev)
    vsum = torch.zeros(ny * nx, dtype=torch.float64, device=dev)
    wsum = torch.zeros(ny * nx, dtype=torch.float64, device=dev)
    roi2 = roi * roi
    for lo in range(0, gx.numel(), 16384):
        cx, cy, cv = gx[lo:lo + 16384], gy[lo:lo + 16384], val[lo:lo + 16384]
        ix = torch.floor((cx - roi - x0) / dx).long()[:, None, None] + ox[None, None, :]
        iy = torch.floor((cy - roi - y0) / dy).long()[:, None, None] + oy[None, :, None]
        inside = (ix >= 0) & (ix < nx) & (iy >= 0) & (iy < ny)
        ixc, iyc = ix.clamp(0, nx - 1), iy.clamp(0, ny - 1)
        d2 = (xs[ixc] - cx[:, None, None]) ** 2 + (ys[iyc] - cy[:, None, None]) ** 2
        keep = inside & (d2 < roi2)
        w = torch.where(keep, (roi2 - d2) / (roi2 + d2), 0.0)
        flat = (iyc * nx + ixc)[keep]
        wsum.index_add_(0, flat, w[keep])
        vsum.index_add_(0, flat, (w * cv[:, None, None])[keep])
    grid = torch.where(wsum > 0, vsum / wsum.clamp(min=1e-300), FILL)
    return grid.reshape(ny, nx).to(refl.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pairs = s["nx"] * s["ny"] * s["rays"] * s["gates"]
    return {"bytes": 4 * (s["rays"] * s["gates"] + s["nx"] * s["ny"]), "flops": 10 * pairs}
