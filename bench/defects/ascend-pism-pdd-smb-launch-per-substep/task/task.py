"""Positive-degree-day surface mass balance over one model year (PISM's TemperatureIndex + PDDMassBalance).

Following PISM (Calov & Greve 2005 expectation of positive degree days, degree-day factors of
Ritz 1997 as in PISM's defaults), the year is cut into N sub-steps of dt_days days (PISM's
surface.pdd.max_evals_per_year = 52, i.e. weekly). For every grid cell and sub-step k, with the
near-surface air temperature T_k (deg C) and the precipitation P_k (m ice equivalent over the sub-step):

    PDD_k  = dt_days * ( sigma / sqrt(2 pi) * exp(-Z^2) + T_k / 2 * erfc(-Z) ),  Z = T_k / (sqrt(2) sigma)
    acc_k  = P_k * clamp((T_rain - T_k) / (T_rain - T_snow), 0, 1)       (snow part of the precipitation)
    d      = min(snow, H) + acc_k             (snow depth cannot exceed the ice thickness H)
    ice    = H - min(snow, H)
    snow_melted = min(PDD_k * ddf_snow, d)
    ice_melted  = min(max(PDD_k - d / ddf_snow, 0) * ddf_ice, ice)
    runoff_k = snow_melted + ice_melted - refreeze * snow_melted
    melt    += snow_melted + ice_melted;  runoff += runoff_k;  smb += acc_k - runoff_k
    snow     = d - snow_melted

starting from snow = snow0 and melt = runoff = smb = 0 (firn depth stays zero, as in PISM with no
initial firn). Returns PISM's yearly diagnostics (smb, melt, runoff, snow), each [My, Mx] in m ice
equivalent.
"""
import math

import torch

META = {
    "name": "pdd_surface_mass_balance",
    "level": 2,
    "category": "climate-forcing",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"N": 12, "My": 6, "Mx": 50},
        "ragged": {"N": 7, "My": 9, "Mx": 37},
        "large": {"N": 52, "My": 1121, "Mx": 601},
    },
    "baseline_notes": "One launch of 40 programs (the A2's vector cores) looping over blocks of 1024 cells; "
                      "each block keeps its snow depth, melt, runoff and SMB in registers across an inner loop over the N "
                      "sub-steps (contiguous [BLOCK] loads of T_k and P_k, Calov-Greve PDD with tl.math.erf, "
                      "PISM's snow/ice melt and refreeze), then stores the four yearly fields once; no autotune.",
    "deterministic": True,
}

# PISM defaults (surface.pdd.*): sigma 5 K, ddf snow 3.297e-3 / ice 8.791e-3 m ice eq. K^-1 day^-1,
# refreeze fraction 0.6, all snow below 0 C, all rain above 2 C.
PARAMS = {"sigma": 5.0, "ddf_snow": 3.297e-3, "ddf_ice": 8.791e-3, "refreeze": 0.6,
          "t_snow": 0.0, "t_rain": 2.0}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """T [N, My, Mx] (deg C), P [N, My, Mx] (m ice eq. per sub-step), H [My, Mx] (m),
    snow0 [My, Mx] (m ice eq.), dt_days (float)."""
    s = META["sizes"][size]
    n, my, mx = s["N"], s["My"], s["Mx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.linspace(0.0, 1.0, my)[:, None]          # south -> north
    x = torch.linspace(0.0, 1.0, mx)[None, :]
    r2 = ((x - 0.5) / 0.45) ** 2 + ((y - 0.5) / 0.48) ** 2
    H = (3000.0 * torch.clamp(1.0 - r2, min=0.0) ** 0.375) * (1.0 + 0.05 * torch.randn(my, mx, generator=g))
    H = torch.where(r2 < 1.0, H.clamp(min=0.0), torch.zeros_like(H))
    elev = H + 200.0 * torch.rand(my, mx, generator=g)
    t_mean = 0.5 - 12.0 * y - 0.0065 * elev + torch.randn(my, mx, generator=g)     # lapse rate 6.5 K/km
    amp = 6.0 + 6.0 * torch.rand(my, mx, generator=g)
    phase = (torch.arange(n, dtype=torch.float32) + 0.5) / n
    season = -torch.cos(2.0 * math.pi * phase)[:, None, None]
    T = t_mean[None] + amp[None] * season + 2.0 * torch.randn(n, my, mx, generator=g)
    p_year = 0.15 + 1.2 * torch.exp(-elev / 1500.0) * torch.rand(my, mx, generator=g)
    P = (p_year[None] / n) * (0.3 + 1.4 * torch.rand(n, my, mx, generator=g))
    snow0 = 0.4 * torch.rand(my, mx, generator=g) * (H > 0)
    cast = lambda t: t.to(device=device, dtype=dt).contiguous()
    return cast(T), cast(P), cast(H), cast(snow0), 365.0 / n


def reference(T: torch.Tensor, P: torch.Tensor, H: torch.Tensor, snow0: torch.Tensor, dt_days: float) -> tuple:
    p = PARAMS
    Td, Pd, Hd = T.double(), P.double(), H.double()
    snow = snow0.double().clone()
    smb = torch.zeros_like(Hd)
    melt = torch.zeros_like(Hd)
    total_runoff = torch.zeros_like(Hd)
    sigma = p["sigma"]
    for k in range(Td.shape[0]):
        t = Td[k]
        z = t / (math.sqrt(2.0) * sigma)
        pdd = dt_days * (sigma / math.sqrt(2.0 * math.pi) * torch.exp(-z * z) + 0.5 * t * torch.erfc(-z))
        frac = ((p["t_rain"] - t) / (p["t_rain"] - p["t_snow"])).clamp(0.0, 1.0)
        acc = Pd[k] * frac
        old = torch.minimum(snow, Hd)
        ice = Hd - old
        d = old + acc
        snow_melted = torch.minimum(pdd * p["ddf_snow"], d)
        ice_melted = torch.minimum((pdd - d / p["ddf_snow"]).clamp(min=0.0) * p["ddf_ice"], ice)
        runoff = snow_melted + ice_melted - p["refreeze"] * snow_melted
        melt = melt + snow_melted + ice_melted
        total_runoff = total_runoff + runoff
        smb = smb + acc - runoff
        snow = d - snow_melted
    return smb.to(T.dtype), melt.to(T.dtype), total_runoff.to(T.dtype), snow.to(T.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["My"] * s["Mx"]
    return {"bytes": 8 * s["N"] * cells + 24 * cells, "flops": 40 * s["N"] * cells}
