"""One explicit step of the column enthalpy equation (PISM's enthalpy model, Aschwanden et al. 2012).

E [My, Mx, Mz] is stored the way PISM stores its 3-D fields: every column's Mz levels contiguous, on
the equally spaced ice-model grid z_k = k dz (Lz = (Mz - 1) dz above the base). For every column with
thickness H, surface enthalpy E_s and basal heat flux G (geothermal + frictional), at levels inside the
ice (z_k < H):

    E_pmp(z)   = c_i (T_m - beta rho g (H - z) - T_0)                pressure-melting enthalpy
    K(E, z)    = k_i / c_i if E < E_pmp(z) else 0.1 k_i / c_i          cold / temperate conductivity
    K_{k+1/2}  = (K_k + K_{k+1}) / 2,  K_{k-1/2} = (K_k + K_{k-1}) / 2
    flux_up    = K_{k+1/2} (E_{k+1} - E_k) / dz,   flux_down = K_{k-1/2} (E_k - E_{k-1}) / dz  (= -G at k = 0)
    adv        = w_k (E_k - E_{k-1}) / dz if w_k > 0 else w_k (E_{k+1} - E_k) / dz        (upwind)
    E_k'       = E_k + dt ((flux_up - flux_down) / (rho dz) - adv + Sigma_k / rho)

where neighbours above the surface read E_s and the level below the base is a copy of level 0.
Levels above the ice (z_k >= H) are set to E_s. Returns E' [My, Mx, Mz] fp32 (J/kg).
"""
import math

import torch

RHO, C_ICE, K_ICE = 910.0, 2009.0, 2.10
T_MELT, T_0, BETA, GRAV = 273.15, 223.15, 7.9e-8, 9.81
LATENT = 3.34e5
YEAR = 365.0 * 86400.0

META = {
    "name": "enthalpy_column_step",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-2, "rtol": 1e-6}},
    "sizes": {
        "small": {"My": 3, "Mx": 7, "Mz": 101},
        "ragged": {"My": 5, "Mx": 9, "Mz": 37},
        "large": {"My": 561, "Mx": 301, "Mz": 101},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 16 columns; each block is "
                      "one contiguous [16, 128] tile of whole columns (levels on the last axis) plus the tiles "
                      "shifted by -1 and +1 level, the cold/temperate switch, conduction, upwind advection "
                      "and strain heating on the tile, and one [16, 128] store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """E, w (m/s), Sigma (W/m^3) [My, Mx, Mz]; H (m), E_s (J/kg), G (W/m^2) [My, Mx]; dz (m); dt (s)."""
    s = META["sizes"][size]
    my, mx, mz = s["My"], s["Mx"], s["Mz"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    f64 = torch.float64
    dz = 4000.0 / (mz - 1) if mz > 60 else 40.0
    lz = (mz - 1) * dz
    H = 0.85 * lz * torch.rand(my, mx, generator=g, dtype=f64) ** 0.5
    H = torch.where(torch.rand(my, mx, generator=g, dtype=f64) < 0.15, torch.zeros_like(H), H)   # ice-free
    z = torch.arange(mz, dtype=f64) * dz
    t_surf = 273.15 - 5.0 - 25.0 * torch.rand(my, mx, generator=g, dtype=f64)
    e_pmp = C_ICE * (T_MELT - BETA * RHO * GRAV * (H[..., None] - z) - T_0)
    # cold profile from the surface temperature down to just below melting at the base
    t_base = T_MELT - BETA * RHO * GRAV * H - 0.3 - 8.0 * torch.rand(my, mx, generator=g, dtype=f64)
    frac = (z / H.clamp(min=1.0)[..., None]).clamp(max=1.0)
    temp = t_base[..., None] + (t_surf - t_base)[..., None] * frac ** 1.5
    E = C_ICE * (temp - T_0)
    E = torch.minimum(E, e_pmp - 250.0)                               # cold ice at least 250 J/kg below E_pmp
    # a temperate basal layer (water content 0.2 - 2 %) in a third of the columns
    temperate_top = H * 0.15 * torch.rand(my, mx, generator=g, dtype=f64) * (torch.rand(my, mx, generator=g) < 0.33)
    omega = 0.002 + 0.018 * torch.rand(my, mx, mz, generator=g, dtype=f64)
    E = torch.where(z < temperate_top[..., None], e_pmp + omega * LATENT, E)
    e_s = C_ICE * (t_surf - T_0)
    ice = z < H[..., None]
    E = torch.where(ice, E, e_s[..., None])
    acc = (0.05 + 0.5 * torch.rand(my, mx, generator=g, dtype=f64)) / YEAR
    w = -acc[..., None] * frac + 0.02 / YEAR * torch.randn(my, mx, mz, generator=g, dtype=f64)
    sigma = 2.0e-5 * torch.exp(-((H[..., None] - z).clamp(min=0.0)) / 300.0) * torch.rand(my, mx, 1, generator=g,
                                                                                            dtype=f64)
    G = 0.04 + 0.06 * torch.rand(my, mx, generator=g, dtype=f64)
    cast = lambda t: t.to(device=device, dtype=dt_).contiguous()
    return cast(E), cast(w), cast(sigma), cast(H), cast(e_s), cast(G), dz, YEAR


def reference(E, w, sigma, H, e_s, G, dz: float, dt: float) -> torch.Tensor:
    e, wv, sg = E.double(), w.double(), sigma.double()
    h, es, gf = H.double()[..., None], e_s.double()[..., None], G.double()[..., None]
    mz = e.shape[-1]
    z = torch.arange(mz, dtype=torch.float64, device=e.device) * dz
    ice = z < h
    ec = torch.where(ice, e, es)
    ep = torch.where(z + dz < h, torch.cat([e[..., 1:], e[..., -1:]], dim=-1), es)
    em = torch.cat([ec[..., :1], ec[..., :-1]], dim=-1)
    cb = C_ICE * BETA * RHO * GRAV
    e_pmp = C_ICE * (T_MELT - T_0) - cb * (h - z)
    k_cold, k_temp = K_ICE / C_ICE, 0.1 * K_ICE / C_ICE
    kc = torch.where(ec < e_pmp, k_cold, k_temp)
    kp = torch.where(ep < e_pmp + cb * dz, k_cold, k_temp)
    km = torch.where(em < e_pmp - cb * dz, k_cold, k_temp)
    flux_up = 0.5 * (kc + kp) * (ep - ec) / dz
    flux_dn = 0.5 * (kc + km) * (ec - em) / dz
    flux_dn = torch.cat([-gf.expand(*gf.shape[:-1], 1), flux_dn[..., 1:]], dim=-1)
    adv = torch.where(wv > 0, wv * (ec - em), wv * (ep - ec)) / dz
    new = ec + dt * ((flux_up - flux_dn) / (RHO * dz) - adv + sg / RHO)
    return torch.where(ice, new, es).to(E.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["My"] * s["Mx"] * s["Mz"]
    return {"bytes": 16 * n + 12 * s["My"] * s["Mx"], "flops": 30 * n}
