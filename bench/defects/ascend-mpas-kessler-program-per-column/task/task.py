"""One rain sub-step of the Kessler warm-rain microphysics (DCMIP2016 kessler, KW78) on MPAS-A state arrays.

Fields are stored as MPAS stores them, (nVertLevels, nCells) in Fortran order, i.e. C-order
[nCells, nVertLevels] with each cell's column contiguous; level 0 is the lowest model level. For one
sub-step dt0 (the caller has already split dt into CFL-safe rain sub-steps) every column does:
    r = 0.001 rho, rhalf = sqrt(rho_sfc / rho), pc = 3.8 / (pk^(1/xk) psl)
    velqr = 36.34 rhalf (qr r)^0.1364                        (rain terminal velocity, KW 2.15)
    precl = rho_sfc qr_sfc velqr_sfc / rhoqr                (surface rain rate, m/s)
    sed_k = dt0 (r_k+1 qr_k+1 velqr_k+1 - r_k qr_k velqr_k) / (r_k (z_k+1 - z_k)),
    sed_top = -dt0 qr velqr / (0.5 (z_top - z_top-1))     (upstream sedimentation)
    autoconversion + accretion (KW 2.13), saturation mixing ratio (KW 2.11), rain evaporation
    (KW 2.14) and saturation adjustment (KW 3.10), as in kessler.f90.
Returns (theta, qv, qc, qr) after the sub-step, each [nCells, nVertLevels], and precl [nCells].
"""
import math

import torch

META = {
    "name": "kessler_rain_substep",
    "level": 2,
    "category": "weather-physics",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-4}},
    "sizes": {
        "small": {"ncells": 6, "nlev": 10},
        "ragged": {"ncells": 13, "nlev": 23},
        "large": {"ncells": 655362, "nlev": 60},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 8 cells x the whole column "
                      "(BL = next_power_of_2(nlev)); each block loads the seven fields plus qr, rho and z "
                      "one level up as [8, BL] tiles, computes the sub-step and stores four [8, BL] tiles "
                      "and 8 surface rain rates; no autotune.",
    "deterministic": True,
}

XK = 0.2875            # kappa = Rd / cp
CP = 1004.5            # J / (kg K)
LV = 2.5e6             # J / kg
PSL = 1000.0           # hPa
RHOQR = 1000.0         # kg / m^3, liquid water
F2X = 17.27
F5 = 237.3 * F2X * LV / CP


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """theta, qv, qc, qr, rho, pk (Exner), z: [ncells, nlev] each, and the sub-step dt0 (s)."""
    s = META["sizes"][size]
    n, L = s["ncells"], s["nlev"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    eta = torch.linspace(0.0, 1.0, L, dtype=torch.float64)
    z0 = 25.0 + 20000.0 * (0.25 * eta + 0.75 * eta ** 2)                 # stretched, ~25 m to 20 km
    z = z0[None, :] * (1.0 + 0.02 * torch.rand(n, 1, generator=g, dtype=torch.float64))
    p = 1000.0 * torch.exp(-z / 8000.0) * (1.0 + 0.01 * torch.randn(n, 1, generator=g, dtype=torch.float64))
    pk = (p / PSL) ** XK
    theta = 298.0 + 4.0e-3 * z + torch.randn(n, L, generator=g, dtype=torch.float64)
    temp = theta * pk
    rho = p * 100.0 / (287.0 * temp)
    qvs = 3.8 / (pk ** (1.0 / XK) * PSL) * torch.exp(F2X * (temp - 273.0) / (temp - 36.0))
    qv = qvs * (0.8 + 0.3 * torch.rand(n, L, generator=g, dtype=torch.float64))   # sub- and super-saturated
    qc = 1.5e-3 * torch.rand(n, L, generator=g, dtype=torch.float64) * (torch.rand(n, L, generator=g) < 0.6)
    qr = 2.5e-3 * torch.rand(n, L, generator=g, dtype=torch.float64) * (torch.rand(n, L, generator=g) < 0.7)
    fields = [theta, qv, qc, qr, rho, pk, z]
    return (*(f.to(dt).to(device).contiguous() for f in fields), 4.0)


def reference(theta, qv, qc, qr, rho, pk, z, dt0):
    th, qv, qc, qr, rho, pk, z = (t.double() for t in (theta, qv, qc, qr, rho, pk, z))
    qr = qr.clamp(min=0.0)
    r = 0.001 * rho
    rhalf = torch.sqrt(rho[:, :1] / rho)
    pc = 3.8 / (pk ** (1.0 / XK) * PSL)
    velqr = 36.34 * rhalf * (qr * r) ** 0.1364
    precl = rho[:, 0] * qr[:, 0] * velqr[:, 0] / RHOQR
    flux = r * qr * velqr
    sed = torch.empty_like(qr)
    sed[:, :-1] = dt0 * (flux[:, 1:] - flux[:, :-1]) / (r[:, :-1] * (z[:, 1:] - z[:, :-1]))
    sed[:, -1] = -dt0 * qr[:, -1] * velqr[:, -1] / (0.5 * (z[:, -1] - z[:, -2]))
    qrprod = qc - (qc - dt0 * torch.clamp(0.001 * (qc - 0.001), min=0.0)) / (1.0 + dt0 * 2.2 * qr ** 0.875)
    qc = torch.clamp(qc - qrprod, min=0.0)
    qr = torch.clamp(qr + qrprod + sed, min=0.0)
    tk = pk * th
    qvs = pc * torch.exp(F2X * (tk - 273.0) / (tk - 36.0))
    prod = (qv - qvs) / (1.0 + qvs * F5 / (tk - 36.0) ** 2)
    rq = r * qr
    ern = dt0 * (((1.6 + 124.9 * rq ** 0.2046) * rq ** 0.525)
                 / (2550000.0 * pc / (3.8 * qvs) + 540000.0)) * (torch.clamp(qvs - qv, min=0.0) / (r * qvs))
    ern = torch.minimum(torch.minimum(ern, torch.clamp(-prod - qc, min=0.0)), qr)
    cond = torch.maximum(prod, -qc)
    th_new = th + LV / (CP * pk) * (cond - ern)
    qv_new = torch.clamp(qv - cond + ern, min=0.0)
    qc_new = qc + cond
    qr_new = qr - ern
    out = (th_new, qv_new, qc_new, qr_new, precl)
    return tuple(t.to(theta.dtype) for t in out)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    pts = s["ncells"] * s["nlev"]
    return {"bytes": 4 * (7 + 4) * pts + 4 * s["ncells"], "flops": 90 * pts}
