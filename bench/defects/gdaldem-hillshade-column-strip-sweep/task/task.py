"""Hillshade of a DEM as gdaldem computes it (GDAL apps/gdaldem_lib.cpp, GDALHillshadeAlg).

Horn's 3x3 gradient at every interior cell,
    x = ((z[r-1,c-1] + 2 z[r,c-1] + z[r+1,c-1]) - (z[r-1,c+1] + 2 z[r,c+1] + z[r+1,c+1])) / (8 ewres)
    y = ((z[r+1,c-1] + 2 z[r+1,c] + z[r+1,c+1]) - (z[r-1,c-1] + 2 z[r-1,c] + z[r-1,c+1])) / (8 nsres)
then the trig-free shade of gdaldem's algebraic form,
    shade = (sin(alt) - z_factor cos(alt) (y cos(az) - x sin(az))) / sqrt(1 + z_factor^2 (x^2 + y^2)),
clamped at 0. The one-cell border has no full window and is written as 0 (gdaldem without
-compute_edges writes nodata there). Output float32 in [0, 1].
"""
import math

import torch

META = {
    "name": "dem_hillshade_horn",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 70, "W": 40},
        "ragged": {"H": 133, "W": 301},
        "large": {"H": 10812, "W": 10812},
    },
    "baseline_notes": "2-D grid of (256-column strip, 64-row band) programs; each sweeps its band top to bottom "
                      "keeping the previous two rows' Horn terms in registers (one new DEM row loaded per step, "
                      "shifted left/centre/right loads), fp32 math, border written as 0; 4 warps, no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """dem [H, W] (metres, north up), ewres, nsres (cell size in metres), z_factor, azimuth and altitude (degrees)."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    coarse = torch.randn(1, 1, H // 16 + 2, W // 16 + 2, generator=g) * 180.0
    relief = torch.nn.functional.interpolate(coarse, size=(H, W), mode="bicubic", align_corners=False)[0, 0]
    rows = torch.linspace(0, 6.0, H)[:, None]
    cols = torch.linspace(0, 9.0, W)[None, :]
    dem = 1400.0 + 600.0 * torch.sin(rows) * torch.cos(cols) + relief + torch.rand(H, W, generator=g) * 2.0
    # a USGS 3DEP 1/3 arc-second tile near 40 N: about 7.9 m east-west, 10.3 m north-south
    return dem.to(dt).to(device), 7.9, 10.3, 1.0, 315.0, 45.0


def reference(dem: torch.Tensor, ewres: float, nsres: float, z_factor: float,
              azimuth: float, altitude: float) -> torch.Tensor:
    z = dem.double()
    H, W = z.shape
    out = torch.zeros(H, W, dtype=torch.float64, device=dem.device)
    if H < 3 or W < 3:
        return out.to(dem.dtype)

    def win(dr, dc):
        return z[1 + dr:H - 1 + dr, 1 + dc:W - 1 + dc]

    x = ((win(-1, -1) + 2 * win(0, -1) + win(1, -1)) - (win(-1, 1) + 2 * win(0, 1) + win(1, 1))) / (8 * ewres)
    y = ((win(1, -1) + 2 * win(1, 0) + win(1, 1)) - (win(-1, -1) + 2 * win(-1, 0) + win(-1, 1))) / (8 * nsres)
    alt, az = math.radians(altitude), math.radians(azimuth)
    cang = (math.sin(alt) - z_factor * math.cos(alt) * (y * math.cos(az) - x * math.sin(az))) \
        / torch.sqrt(1 + z_factor ** 2 * (x * x + y * y))
    out[1:H - 1, 1:W - 1] = cang.clamp_min(0.0)
    return out.to(dem.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 8 * n, "flops": 30 * n}
