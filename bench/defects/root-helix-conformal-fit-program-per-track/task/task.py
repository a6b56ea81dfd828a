"""Helix seed fit of barrel-tracker hits in a solenoid (conformal-mapping circle fit + r-z line fit).

The ROOT-based reconstruction chains of collider experiments (FairRoot/PandaRoot helix fitters, ALICE
AliRoot seeding) start a track from a fast, non-iterative helix fit of its hits. Per track, the
transverse hits are rotated so that their mean direction is the +x axis, mapped to the conformal
plane (u, v) = (x, y) / (x^2 + y^2), where a circle through the beam line becomes the straight line
v = a + b u (Hansen & Tolsgaard); a least-squares line gives a and b, from which the signed
curvature kappa = 2 a / sqrt(1 + b^2), q/pT = -kappa * 1000 / (0.3 B) (kappa in 1/mm, B in T) and
the transverse direction (cos phi0, sin phi0) at the beam line follow. A least-squares line
z = z0 + cot(theta) r in the r-z plane gives the polar direction and the longitudinal impact parameter.

Inputs: hits [T, 16, 3] fp32 (x, y, z in mm, hit k on barrel layer k, innermost first; slots
k >= n_hits[t] are padding), n_hits [T] int32 (5..16), b_field (float, tesla).
Returns params [T, 5] fp32: (q/pT [c/GeV], cos phi0, sin phi0, cot theta, z0 [mm]).
"""
import math

import torch

META = {
    "name": "helix_conformal_fit",
    "level": 2,
    "category": "particle-physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"T": 40},
        "ragged": {"T": 77},
        "large": {"T": 1048576},
    },
    "baseline_notes": "One program per block of 64 tracks: the [64, 16] hit tile is loaded once (x, y, z at "
                      "stride 3), all the fit's sums are reductions along the hit axis, and the five "
                      "parameters are stored per track. 4 warps, no autotune.",
    "deterministic": True,
}
MAX_HITS = 16
LAYER_R = (29., 68., 109., 160., 255., 339., 418., 498., 608., 692., 780., 868., 965., 1080., 1150., 1200.)
HALF_LENGTH = 1400.0   # barrel half-length, mm
B_FIELD = 3.8


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Helices from the beam spot (pT 0.9-50 GeV, |eta| < 2), hits on the barrel layers they cross."""
    t = META["sizes"][size]["T"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    pt = torch.empty(t).uniform_(math.log(0.9), math.log(50.0), generator=g).exp()
    radius = pt / (0.3 * B_FIELD) * 1000.0
    q = torch.randint(0, 2, (t,), generator=g).double() * 2.0 - 1.0
    phi0 = (torch.rand(t, generator=g) * 2.0 - 1.0) * math.pi
    cot = torch.sinh((torch.rand(t, generator=g) * 2.0 - 1.0) * 2.0)
    z0 = 40.0 * torch.randn(t, generator=g)
    vx, vy = 0.02 * torch.randn(t, generator=g), 0.02 * torch.randn(t, generator=g)
    r = torch.tensor(LAYER_R)[None, :].expand(t, MAX_HITS)
    turn = torch.asin((r / (2.0 * radius[:, None])).clamp(max=1.0))
    phi = phi0[:, None] - q[:, None] * turn          # positive tracks bend clockwise in B along +z
    rphi_err = 0.015 * torch.randn(t, MAX_HITS, generator=g)
    x = vx[:, None] + r * torch.cos(phi) - rphi_err * torch.sin(phi)
    y = vy[:, None] + r * torch.sin(phi) + rphi_err * torch.cos(phi)
    z = z0[:, None] + 2.0 * radius[:, None] * turn * cot[:, None] + 0.03 * torch.randn(t, MAX_HITS, generator=g)
    crossed = (z.abs() < HALF_LENGTH) & (r < 2.0 * radius[:, None])
    n_hits = torch.cumprod(crossed.int(), 1).sum(1).clamp(min=5).to(torch.int32)
    hits = torch.stack([x, y, z], dim=2)
    hits[torch.arange(MAX_HITS)[None, :] >= n_hits[:, None]] = 0.0
    return hits.to(device=device, dtype=dt).contiguous(), n_hits.to(device), B_FIELD


def reference(hits: torch.Tensor, n_hits: torch.Tensor, b_field: float) -> torch.Tensor:
    h = hits.double()
    x, y, z = h[..., 0], h[..., 1], h[..., 2]
    m = (torch.arange(h.shape[1], device=h.device)[None, :] < n_hits[:, None].long()).double()
    n = n_hits.double()
    sx, sy = (x * m).sum(1), (y * m).sum(1)
    norm = torch.sqrt(sx * sx + sy * sy)
    c, s = (sx / norm)[:, None], (sy / norm)[:, None]
    xr, yr = c * x + s * y, -s * x + c * y
    r2 = torch.where(m > 0, xr * xr + yr * yr, torch.ones_like(xr))
    u, v = xr / r2 * m, yr / r2 * m
    ub, vb = u.sum(1) / n, v.sum(1) / n
    du, dv = (u - ub[:, None]) * m, (v - vb[:, None]) * m
    b = (du * dv).sum(1) / (du * du).sum(1)
    a = vb - b * ub
    sec = torch.sqrt(1.0 + b * b)
    q_over_pt = -(1000.0 / (0.3 * b_field)) * 2.0 * a / sec
    c, s = c[:, 0], s[:, 0]
    cphi, sphi = (c - s * b) / sec, (s + c * b) / sec
    r = torch.sqrt(r2) * m
    rb, zb = r.sum(1) / n, (z * m).sum(1) / n
    dr, dz = (r - rb[:, None]) * m, (z - zb[:, None]) * m
    cot = (dr * dz).sum(1) / (dr * dr).sum(1)
    z0 = zb - cot * rb
    return torch.stack([q_over_pt, cphi, sphi, cot, z0], dim=1).to(hits.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    t = META["sizes"][size]["T"]
    return {"bytes": t * (MAX_HITS * 12 + 4 + 20), "flops": t * MAX_HITS * 40}
