"""Waked hub-height speed of every turbine for a FLORIS time series (TurbOPark Gaussian deficit, SOSFS combination).

FLORIS's TurboparkgaussVelocityDeficit (Pedersen, Svensen, Poulsen & Nygaard 2022, A = 0.04) evaluated at the rotor
centres of all turbines from all sources at once (one All2All sweep with the sources' thrust coefficients), the
ground-image wake included and combined by sum of squares of the free-stream-scaled deficits ("sosfs"):
    dx = x_i - x_j, dy = y_i - y_j  (coordinates already rotated so the wind blows along +x, per findex)
    downstream: dx >= 0.001 m (FLORIS NUM_EPS);  x_D = dx / D there, 0 elsewhere
    alpha = 1.5 I0,  beta_j = 0.8 I0 / sqrt(ct_j),  t2 = sqrt(1 + alpha^2),  q = alpha + beta_j x_D,  t1 = sqrt(q^2 + 1)
    sigma/D = 0.25 sqrt((1 + sqrt(1 - ct_j)) / (2 sqrt(1 - ct_j)))
              + A I0 / beta_j * (t1 - t2 - ln((t1 + 1) alpha / ((t2 + 1) q)))
    C = 1 - sqrt(clip(1 - ct_j / (8 (sigma/D)^2), 0, 1))
    delta^2 = C^2 (exp(-dy^2 / (2 sigma^2))^2 + exp(-(dy^2 + (2 h)^2) / (2 sigma^2))^2)   (real + image wake, hypot)
    u[f, i] = u0[f] (1 - sqrt(sum_{j downstream of} delta^2))
(The per-source initial width replaces FLORIS's minimum over findices, and the 4-sigma truncation of the
overlap mask is left out.) Large size: an hourly year (8,760 findices) of an 8 x 8 farm of IEA 15-MW turbines
(D = 240 m, hub height 150 m, 7 D spacing), each hour with its own direction, speed and ambient TI.
"""
import math

import torch

META = {
    "name": "floris_turboparkgauss_sosfs",
    "level": 2,
    "category": "pairwise",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"F": 6, "rows": 2, "cols": 5},
        "ragged": {"F": 7, "rows": 3, "cols": 4},
        "large": {"F": 8760, "rows": 8, "cols": 8},
    },
    "baseline_notes": "40 programs (the vector cores of an Atlas A2) loop over findices; per findex the source "
                      "row (x, y, ct: contiguous vectors of next_power_of_2(n_turbines)) and its per-source terms "
                      "are computed once, destinations are taken 32 at a time as a [32, BJ] pair tile reduced "
                      "along the contiguous source axis; u0 and I0 are scalar loads; one 32-wide store per tile.",
    "deterministic": True,
}
ROTOR_D = 240.0
HUB_H = 150.0
A_TURBOPARK = 0.04


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x_r, y_r [F, T] rotated coordinates (m), ct [F, T], u0 [F] (m/s), ti [F], then D, hub height, A."""
    s = META["sizes"][size]
    F, rows, cols = s["F"], s["rows"], s["cols"]
    T = rows * cols
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    c = torch.arange(cols, dtype=torch.float64).repeat(rows)
    r = torch.arange(rows, dtype=torch.float64).repeat_interleave(cols)
    x = 7.0 * ROTOR_D * c + 25.0 * torch.randn(T, generator=g, dtype=torch.float64)
    y = 7.0 * ROTOR_D * r + 25.0 * torch.randn(T, generator=g, dtype=torch.float64)
    xc, yc = x.mean(), y.mean()
    wd = torch.rand(F, 1, generator=g, dtype=torch.float64) * 360.0
    a = torch.deg2rad(270.0 - wd)                       # FLORIS: 270 deg (westerly) blows along +x
    x_r = (x - xc) * torch.cos(a) - (y - yc) * torch.sin(a) + xc
    y_r = (x - xc) * torch.sin(a) + (y - yc) * torch.cos(a) + yc
    u0 = 4.0 + 16.0 * torch.rand(F, generator=g, dtype=torch.float64)
    ti = 0.04 + 0.08 * torch.rand(F, generator=g, dtype=torch.float64)
    ct = 0.2 + 0.65 * torch.rand(F, T, generator=g, dtype=torch.float64)
    to = dict(device=device, dtype=dt)
    return (x_r.to(**to), y_r.to(**to), ct.to(**to), u0.to(**to), ti.to(**to), ROTOR_D, HUB_H, A_TURBOPARK)


def reference(x_r, y_r, ct, u0, ti, D, hub_height, A):
    F, T = x_r.shape
    out = torch.empty(F, T, dtype=torch.float64, device=x_r.device)
    for f0 in range(0, F, 512):
        xs, ys = x_r[f0:f0 + 512].double(), y_r[f0:f0 + 512].double()
        cj = ct[f0:f0 + 512].double()[:, None, :]                      # [f, 1, j]
        i0 = ti[f0:f0 + 512].double().view(-1, 1, 1)
        dx = xs[:, :, None] - xs[:, None, :]                           # [f, i, j]
        dy = ys[:, :, None] - ys[:, None, :]
        down = dx >= 0.001
        x_d = torch.where(down, dx / D, torch.zeros_like(dx))
        alpha = 1.5 * i0
        beta = 0.8 * i0 / torch.sqrt(cj)
        t2 = torch.sqrt(1.0 + alpha * alpha)
        q = alpha + beta * x_d
        t1 = torch.sqrt(q * q + 1.0)
        s1 = torch.sqrt(1.0 - cj)
        sig_d = 0.25 * torch.sqrt(0.5 * (1.0 + s1) / s1) + A * i0 / beta * (
            t1 - t2 - torch.log((t1 + 1.0) * alpha / ((t2 + 1.0) * q)))
        cc = 1.0 - torch.sqrt((1.0 - cj / (8.0 * sig_d * sig_d)).clamp(0.0, 1.0))
        sig2 = (sig_d * D) ** 2
        e1 = torch.exp(-dy * dy / (2.0 * sig2))
        e2 = torch.exp(-(dy * dy + 4.0 * hub_height * hub_height) / (2.0 * sig2))
        d2 = torch.where(down, cc * cc * (e1 * e1 + e2 * e2), torch.zeros_like(dx))
        out[f0:f0 + 512] = u0[f0:f0 + 512].double()[:, None] * (1.0 - torch.sqrt(d2.sum(-1)))
    return out.to(x_r.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    F, T = s["F"], s["rows"] * s["cols"]
    return {"bytes": 16 * F * T + 8 * F, "flops": 60 * F * T * T}
