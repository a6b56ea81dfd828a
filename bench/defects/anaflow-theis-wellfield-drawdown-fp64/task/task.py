"""Theis drawdown of a well field superposed on a map of observation points (AnaFlow theis()).

Each well w pumps at a constant rate Q_w (m^3/d) from its start time t_w in a homogeneous aquifer
of transmissivity T (m^2/d) and storativity S. At time t the drawdown at point p is
    s_p = sum_{w : t > t_w} Q_w / (4 pi T) * W(u_pw),   u_pw = S r_pw^2 / (4 T (t - t_w)),
with r_pw the distance from the well (at least the well radius rw) and W(u) = E1(u) the Theis well
function, evaluated with the Abramowitz & Stegun approximations used in Theis codes:
    u < 1  (5.1.53):  W = -ln u + a0 + a1 u + a2 u^2 + a3 u^3 + a4 u^4 + a5 u^5
    1 <= u < 60 (5.1.56):  W = e^-u / u * (u^4 + c1 u^3 + c2 u^2 + c3 u + c4) / (u^4 + d1 u^3 + d2 u^2 + d3 u + d4)
    u >= 60:  W = 0 (below 1e-28)
Inputs: point coordinates px, py [P] fp32 (MODFLOW cell centres), wells wx, wy, q, t_on [W] fp32,
and the floats T, S, t, rw. Returns s [P] fp32 (m).
"""
import math

import torch

META = {
    "name": "theis_wellfield_drawdown",
    "level": 2,
    "category": "groundwater",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"nx": 24, "ny": 20, "wells": 9},
        "ragged": {"nx": 37, "ny": 29, "wells": 13},
        "large": {"nx": 1024, "ny": 1024, "wells": 128},
    },
    "baseline_notes": "One program per 256 points loops over the wells (four scalar loads each) and evaluates "
                      "both branches of the A&S well function in fp32 with a select, accumulating in fp32; "
                      "4 warps, no autotune.",
    "deterministic": True,
}
SPACING = 10.0   # m, map cell size


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    s = META["sizes"][size]
    nx, ny, nw = s["nx"], s["ny"], s["wells"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    xc = (torch.arange(nx, dtype=torch.float64) + 0.5) * SPACING
    yc = (torch.arange(ny, dtype=torch.float64) + 0.5) * SPACING
    py, px = torch.meshgrid(yc, xc, indexing="ij")
    lx, ly = nx * SPACING, ny * SPACING
    wx = lx * (0.2 + 0.6 * torch.rand(nw, generator=g, dtype=torch.float64))
    wy = ly * (0.2 + 0.6 * torch.rand(nw, generator=g, dtype=torch.float64))
    q = 500.0 + 2500.0 * torch.rand(nw, generator=g, dtype=torch.float64)          # m^3/d
    t_on = 40.0 * torch.rand(nw, generator=g, dtype=torch.float64)                 # d; some not yet on
    transmissivity, storativity, time, rw = 800.0, 0.01, 30.0, 0.15
    to = lambda t: t.reshape(-1).to(device=device, dtype=dt).contiguous()
    return (to(px), to(py), to(wx), to(wy), to(q), to(t_on), transmissivity, storativity, time, rw)


def _well_function(u: torch.Tensor) -> torch.Tensor:
    small = -torch.log(u) - 0.57721566 + u * (0.99999193 + u * (-0.24991055 + u * (
        0.05519968 + u * (-0.00976004 + u * 0.00107857))))
    uc = u.clamp(max=60.0)
    num = (((uc + 8.5733287401) * uc + 18.0590169730) * uc + 8.6347608925) * uc + 0.2677737343
    den = (((uc + 9.5733223454) * uc + 25.6329561486) * uc + 21.0996530827) * uc + 3.9584969228
    large = num / den * torch.exp(-uc) / uc
    return torch.where(u < 1.0, small, torch.where(u < 60.0, large, torch.zeros_like(u)))


def reference(px, py, wx, wy, q, t_on, transmissivity, storativity, time, rw) -> torch.Tensor:
    x, y = px.double()[:, None], py.double()[:, None]
    elapsed = time - t_on.double()[None, :]
    r2 = ((x - wx.double()[None, :]) ** 2 + (y - wy.double()[None, :]) ** 2).clamp(min=rw * rw)
    u = storativity * r2 / (4.0 * transmissivity * elapsed.clamp(min=1e-6))
    w = torch.where(elapsed > 0, _well_function(u), torch.zeros_like(u))
    s = (w * q.double()[None, :]).sum(dim=1) / (4.0 * math.pi * transmissivity)
    return s.to(px.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    p = s["nx"] * s["ny"]
    return {"bytes": 12 * p + 16 * s["wells"], "flops": 40 * p * s["wells"]}
