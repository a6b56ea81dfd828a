"""Shallow-ice-approximation velocity profile of CISM's glissade dycore (glissade_velo_sia), with the
Paterson-Budd rate factor of glissade_flow_factor evaluated in the same pass.

Per velocity point (column) with ice thickness H, surface slope (dsdx, dsdy) and basal velocity
(ubas, vbas), on nz terrain-following levels sigma[0] = 0 (surface) .. sigma[nz-1] = 1 (bed) with layer
temperatures temp[k] (degC, layer k between levels k and k+1):
    tempcor_k = min(0, temp_k + PMLT * H * sigma_mid_k)                       (pressure-melting correction)
    flwa_k    = E * a * exp(-Q / (R * (tempcor_k + 273.15)))   a, Q = 1.733e3 Pa-3 s-1, 139 kJ/mol
                                                               if tempcor >= -10 degC, else 3.613e-13, 60 kJ/mol
                                                               (converted to Pa-3 yr-1)
    siafact   = 2 (rho_i g)^n H^(n+1) |grad s|^(n-1)                            n = 3
    vint[nz-1] = 0,  vint[k] = vint[k+1] - siafact * flwa_k * sigma_mid_k^n * (sigma[k+1] - sigma[k])
    u[k] = ubas + vint[k] * dsdx,   v[k] = vbas + vint[k] * dsdy              (m/yr)
Columns with H <= thklim get zero velocity. Arrays are level-major ([nz or nz-1, ny, nx]).
"""
import math

import torch

META = {
    "name": "cism_sia_velocity_profile",
    "level": 2,
    "category": "scan",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-3}},
    "sizes": {
        "small": {"ny": 6, "nx": 9, "nz": 6},
        "ragged": {"ny": 7, "nx": 19, "nz": 11},
        "large": {"ny": 1400, "nx": 760, "nz": 21},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 1024 columns of the "
                      "flattened (ny, nx) plane; each block walks the layers from the bed to the surface "
                      "once, evaluating the rate factor of each layer once and carrying the running integral "
                      "vint in registers, storing u and v at every level as it goes; no autotune.",
    "deterministic": True,
}

RHOI = 910.0
GRAV = 9.81
PMLT = 9.7456e-8 * RHOI * GRAV          # K per m of ice (CISM: pmlt * rhoi * grav)
SCYR = 31536000.0
GASCON = 8.314
TRPT = 273.15
LN_A_WARM = math.log(1.733e3 * SCYR)
LN_A_COLD = math.log(3.613e-13 * SCYR)
Q_WARM = 139.0e3
Q_COLD = 60.0e3


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """temp [nz-1, ny, nx] (degC), thck, dsdx, dsdy, ubas, vbas [ny, nx], sigma [nz],
    flow enhancement factor (float), thklim (float, m)."""
    s = META["sizes"][size]
    ny, nx, nz = s["ny"], s["nx"], s["nz"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.linspace(-1.0, 1.0, ny)[:, None]
    x = torch.linspace(-1.0, 1.0, nx)[None, :]
    r2 = (y * y + x * x) / 1.2
    thck = 3000.0 * torch.sqrt(torch.clamp(1.0 - r2, min=0.0)) + 20.0 * torch.randn(ny, nx, generator=g)
    thck = torch.clamp(thck, min=0.0)
    slope = 2e-3 + 1.5e-2 * torch.clamp(r2, 0.0, 1.0) ** 2
    ang = torch.atan2(y, x).expand(ny, nx) + 0.3 * torch.randn(ny, nx, generator=g)
    dsdx = -slope * torch.cos(ang)
    dsdy = -slope * torch.sin(ang)
    btrc = 1e-4 * torch.rand(ny, nx, generator=g)                           # (m/yr)/Pa
    ubas = -btrc * RHOI * GRAV * thck * dsdx
    vbas = -btrc * RHOI * GRAV * thck * dsdy
    # quadratic-ish sigma spacing, finer near the bed as in CISM's default
    k = torch.arange(nz, dtype=torch.float64) / (nz - 1)
    sigma = (1.0 - (1.0 - k) ** 1.5).float()
    sigma[0], sigma[-1] = 0.0, 1.0
    smid = 0.5 * (sigma[:-1] + sigma[1:])
    t_surf = -30.0 + 10.0 * torch.rand(ny, nx, generator=g)
    t_bed = -12.0 + 12.0 * torch.rand(ny, nx, generator=g)
    temp = t_surf[None] + (t_bed - t_surf)[None] * smid[:, None, None] ** 2
    temp = temp + 0.5 * torch.randn(nz - 1, ny, nx, generator=g)
    fields = tuple(t.to(dt).contiguous().to(device) for t in (temp, thck, dsdx, dsdy, ubas, vbas, sigma))
    return fields + (1.0, 1.0)


def reference(temp, thck, dsdx, dsdy, ubas, vbas, sigma, enhancement, thklim) -> tuple:
    t, H = temp.double(), thck.double()
    sx, sy, ub, vb, sg = dsdx.double(), dsdy.double(), ubas.double(), vbas.double(), sigma.double()
    smid = 0.5 * (sg[:-1] + sg[1:])
    dsig = sg[1:] - sg[:-1]
    tc = torch.clamp(t + PMLT * H[None] * smid[:, None, None], max=0.0)
    warm = tc >= -10.0
    lna = torch.where(warm, LN_A_WARM, LN_A_COLD)
    q = torch.where(warm, Q_WARM, Q_COLD)
    flwa = enhancement * torch.exp(lna - q / (GASCON * (tc + TRPT)))
    siafact = 2.0 * (RHOI * GRAV) ** 3 * H ** 4 * (sx * sx + sy * sy)
    terms = siafact[None] * flwa * (smid ** 3 * dsig)[:, None, None]          # [nz-1, ny, nx]
    vint = -torch.flip(torch.cumsum(torch.flip(terms, [0]), 0), [0])           # sum over layers k..nz-2
    vint = torch.cat([vint, torch.zeros_like(vint[:1])], 0)                     # [nz, ny, nx]
    ice = (H > thklim)[None]
    u = torch.where(ice, ub[None] + vint * sx[None], 0.0)
    v = torch.where(ice, vb[None] + vint * sy[None], 0.0)
    return u.to(thck.dtype), v.to(thck.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, nz = s["ny"] * s["nx"], s["nz"]
    return {"bytes": 4 * n * ((nz - 1) + 5 + 2 * nz), "flops": 25 * n * (nz - 1)}
