"""Latitude-weighted RMSE per (forecast, variable), as MindSpore Earth / WeatherBench evaluate Pangu-Weather and FourCastNet.

rmse[b, c] = sqrt( mean_{lat, lon} w[lat] * (pred[b, c, lat, lon] - target[b, c, lat, lon])^2 ),
w[lat] = cos(lat) / mean(cos(lat)) on the equiangular 0.25-degree ERA5 grid (721 x 1440).
"""
import math

import torch

META = {
    "name": "lat_weighted_rmse",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 3, "H": 9, "W": 20},
        "ragged": {"B": 1, "C": 5, "H": 13, "W": 37},
        "large": {"B": 4, "C": 69, "H": 721, "W": 1440},
    },
    "baseline_notes": "Persistent grid of min(B*C, 40) programs looping over the (forecast, variable) planes; "
                      "each plane is walked one latitude row at a time with a contiguous next_pow2(W) tile of "
                      "both fields, weighted by the row's scalar latitude weight; fp32 accumulation.",
    "deterministic": True,
}


def lat_weights(H: int) -> torch.Tensor:
    lat = torch.linspace(90.0, -90.0, H, dtype=torch.float64) * (math.pi / 180.0)
    w = torch.cos(lat).clamp_min(0.0)
    return (w / w.mean()).float()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pred, target [B, C, H, W] (forecast and ERA5 analysis, normalised units), weights [H] fp32."""
    s = META["sizes"][size]
    B, C, H, W = s["B"], s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    target = torch.randn(B, C, H, W, generator=g)
    pred = target + 0.3 * torch.randn(B, C, H, W, generator=g)
    return pred.to(device=device, dtype=dt), target.to(device=device, dtype=dt), lat_weights(H).to(device)


def reference(pred: torch.Tensor, target: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    err = (pred.double() - target.double()) ** 2 * weights.double()[None, None, :, None]
    return err.mean(dim=(2, 3)).sqrt().to(pred.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["B"] * s["C"] * s["H"] * s["W"]
    return {"bytes": 8 * n + 4 * s["H"] + 4 * s["B"] * s["C"], "flops": 4 * n}
