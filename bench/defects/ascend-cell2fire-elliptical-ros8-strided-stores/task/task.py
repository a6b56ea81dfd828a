"""Directional spread rates toward the 8 neighbours of every cell (Cell2Fire with the Canadian FBP System).

Cell2Fire turns each burning cell's FBP head rate of spread into rates toward its eight neighbours with
an elliptical fire shape (ignition at the rear focus); the neighbour's arrival time is then distance / rate.
Per cell, with the 10-m wind (u, v) in km/h and the fine-fuel moisture function f(F) from FFMC:
    ws   = |(u, v)|,  ISI = 0.208 * exp(0.05039 * ws) * f(F)
    HROS = a * (1 - exp(-b * ISI)) ** c                       (FBP fuel type C-2: a = 110, b = 0.0282, c = 1.5)
    LB   = 1 + 8.729 * (1 - exp(-0.030 * ws)) ** 2.155       (length-to-breadth ratio)
    e    = sqrt(1 - 1 / LB^2)                                 (eccentricity)
    ros[k] = HROS * (1 - e) / (1 - e * cos(theta_k - theta_wind)),  theta_k = k * 45 deg (k = 0 east, ccw)
so ros is HROS downwind and BROS = HROS (1 - e) / (1 + e) upwind. Inputs ffm, u, v fp32 [H, W] and the
scalars a, b, c; output ros fp32 [H, W, 8] (the 8 directions of a cell contiguous), m/min.
"""
import math

import torch

META = {
    "name": "elliptical_neighbor_ros",
    "level": 1,
    "category": "elementwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"H": 16, "W": 24},
        "ragged": {"H": 29, "W": 41},
        "large": {"H": 4096, "W": 4096},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 512 cells: per-cell FBP head "
                      "rate, length-to-breadth ratio and eccentricity on [512] tiles, then the 8 directional "
                      "rates as one [512, 8] tile (direction cosines from an [8] vector computed once) stored "
                      "with one contiguous 16 KiB transfer. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f(F) [H, W] for FFMC 80-95, wind components u, v [H, W] in km/h (5-40 km/h), and C-2's a, b, c."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ffmc = 80.0 + 15.0 * torch.rand(H, W, generator=g, dtype=torch.float64)
    m = 147.2 * (101.0 - ffmc) / (59.5 + ffmc)
    ffm = 91.9 * torch.exp(-0.1386 * m) * (1.0 + m ** 5.31 / 4.93e7)
    ws = 5.0 + 35.0 * torch.rand(H, W, generator=g, dtype=torch.float64)
    wd = 2.0 * math.pi * torch.rand(H, W, generator=g, dtype=torch.float64)
    u, v = ws * torch.cos(wd), ws * torch.sin(wd)
    cast = lambda t: t.to(dt).to(device)
    return cast(ffm), cast(u), cast(v), 110.0, 0.0282, 1.5


def reference(ffm, u, v, a: float, b: float, c: float) -> torch.Tensor:
    uu, vv = u.double(), v.double()
    ws = torch.sqrt(uu * uu + vv * vv)
    isi = 0.208 * torch.exp(0.05039 * ws) * ffm.double()
    hros = a * (1.0 - torch.exp(-b * isi)) ** c
    lb = 1.0 + 8.729 * (1.0 - torch.exp(-0.030 * ws)) ** 2.155
    ecc = torch.sqrt(1.0 - 1.0 / (lb * lb))
    theta = torch.arange(8, dtype=torch.float64) * (math.pi / 4)
    wx = uu / ws.clamp(min=1e-6)
    wy = vv / ws.clamp(min=1e-6)
    cosd = wx[..., None] * torch.cos(theta) + wy[..., None] * torch.sin(theta)
    ros = hros[..., None] * (1.0 - ecc[..., None]) / (1.0 - ecc[..., None] * cosd)
    return ros.to(u.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 12 * n + 32 * n, "flops": 60 * n}
