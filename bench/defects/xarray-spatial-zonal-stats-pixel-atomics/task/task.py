"""Zonal statistics of a value raster over a label raster (xarray-spatial zonal.stats, rasterstats zonal_stats).

values is an NDVI tile [H, W] float32 with NODATA = -9999 where the scene had no valid pixel; zones is
the co-registered land-cover raster [H, W] int32 with class indices 0 .. num_zones-1 (ESA WorldCover's
11 classes, remapped) and -1 where there is no class. For every zone: the number of valid pixels
(int32) and the sum of their values (float64, as the tools report their statistics); mean = sum / count
is left to the caller.
"""
import torch

NODATA = -9999.0

META = {
    "name": "zonal_count_sum",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 48, "W": 64, "Z": 11},
        "ragged": {"H": 97, "W": 203, "Z": 11},
        "large": {"H": 10980, "W": 10980, "Z": 11},
    },
    "baseline_notes": "Flat grid over the H*W pixels, 128 tiles of 256 pixels per program: each tile is compared "
                      "with the next_power_of_2(Z) zone ids and accumulated into [256, ZB] count and sum registers; "
                      "reduced once per program and added with one atomic per zone (fp64 sums); 4 warps, no autotune.",
    "deterministic": True,
}

# WorldCover class shares of a temperate tile: tree cover, shrubland, grassland, cropland, built-up,
# bare, snow, water, wetland, mangroves, moss
_SHARES = [0.31, 0.04, 0.22, 0.24, 0.07, 0.02, 0.005, 0.06, 0.02, 0.005, 0.01]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """values [H, W] float32, zones [H, W] int32, num_zones, nodata."""
    s = META["sizes"][size]
    H, W, Z = s["H"], s["W"], s["Z"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    patch = 4 if size != "large" else 48                      # land-cover parcels of patch x patch pixels
    ph, pw = -(-H // patch), -(-W // patch)
    shares = torch.tensor(_SHARES[:Z]) if Z <= len(_SHARES) else torch.ones(Z)
    coarse = torch.multinomial(shares / shares.sum(), ph * pw, replacement=True, generator=g).view(ph, pw)
    zones = coarse.repeat_interleave(patch, 0).repeat_interleave(patch, 1)[:H, :W].to(torch.int32)
    zones[torch.rand(H, W, generator=g) < 0.02] = -1
    values = (0.1 + 0.06 * zones.clamp_min(0).float() + 0.15 * torch.randn(H, W, generator=g)).clamp(-1.0, 1.0)
    values[torch.rand(H, W, generator=g) < 0.05] = NODATA
    return values.to(dt).contiguous().to(device), zones.contiguous().to(device), Z, NODATA


def reference(values: torch.Tensor, zones: torch.Tensor, num_zones: int, nodata: float) -> tuple:
    valid = (zones >= 0) & (zones < num_zones) & (values != nodata)
    z = zones[valid].long()
    counts = torch.bincount(z, minlength=num_zones).to(torch.int32)
    sums = torch.bincount(z, weights=values[valid].double(), minlength=num_zones)
    return counts, sums


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 8 * n + 12 * s["Z"], "flops": 2 * n}
