"""Latitude-weighted anomaly correlation coefficient per (forecast, channel), as FourCastNet's
weighted_acc_torch_channels (utils/weighted_acc_rmse.py) on Atlas A2.

pred and target are anomalies after subtracting the time-mean climatology clim [C, H, W]:
acc[b, c] = sum_hw w_h a p / sqrt(sum_hw w_h a a * sum_hw w_h p p), a = pred - clim, p = target - clim,
with w_h = H * cos(lat_h) / sum_h cos(lat_h) on the 0.25-degree grid cropped to 720 latitudes.
"""
import math

import torch

META = {
    "name": "fourcastnet_weighted_acc",
    "level": 2,
    "category": "reduction",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "C": 3, "H": 12, "W": 40},
        "ragged": {"B": 3, "C": 5, "H": 19, "W": 45},
        "large": {"B": 8, "C": 20, "H": 720, "W": 1440},
    },
    "baseline_notes": "One launch, min(B*C, 40) persistent programs, each walking whole (b, c) planes in "
                      "[4, 512] row tiles: loads pred, target and clim once per tile and keeps the three "
                      "weighted sums in fp32 vectors; acc is formed in the same program; no autotune.",
    "deterministic": True,
}


def lat_weights(H: int) -> torch.Tensor:
    lat = torch.tensor([90.0 - j * 180.0 / (H - 1) for j in range(H)], dtype=torch.float64)
    c = torch.cos(lat * math.pi / 180.0)
    return (H * c / c.sum()).float()


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """pred [B, C, H, W], target [B, C, H, W], clim [C, H, W], weight [H] (all fp32)."""
    s = META["sizes"][size]
    B, C, H, W = s["B"], s["C"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    clim = torch.randn(C, H, W, generator=g) * 3.0 + 1.0
    truth = torch.randn(B, C, H, W, generator=g)
    target = clim + truth
    pred = clim + 0.8 * truth + 0.5 * torch.randn(B, C, H, W, generator=g)
    return (pred.to(dt).to(device), target.to(dt).to(device), clim.to(dt).to(device),
            lat_weights(H).to(device))


def reference(pred, target, clim, weight):
    a = pred.double() - clim.double()
    p = target.double() - clim.double()
    w = weight.double()[:, None]
    num = (w * a * p).sum(dim=(-1, -2))
    den = torch.sqrt((w * a * a).sum(dim=(-1, -2)) * (w * p * p).sum(dim=(-1, -2)))
    return (num / den).to(pred.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    plane = s["H"] * s["W"]
    return {"bytes": 4 * (2 * s["B"] * s["C"] * plane + s["C"] * plane + s["H"] + s["B"] * s["C"]),
            "flops": 10 * s["B"] * s["C"] * plane}
