"""Hydrostatic geopotential on model levels (E3SM HOMME preqx dycore, prim_si_mod `preq_hydrostatic`).

Each column integrates the hydrostatic equation upward from the surface geopotential phis over the
model layers (level 0 is the model top, level nlev - 1 the layer next to the ground):
    h_l        = Rgas * T_v[l] * dp[l] / p[l]                  (layer thickness in geopotential)
    phi_i[k]   = sum_{l > k} h_l                               (geopotential of the interface below layer k, above phis)
    phi[k]     = phis + phi_i[k] + 0.5 * h_k                   (mid-level geopotential)
T_v is the virtual temperature, p the mid-level pressure and dp the layer pressure thickness. The
fields are level-major [nlev, ncol] with the columns (the GLL points of all spectral elements)
contiguous. Returns phi [nlev, ncol] (m^2 s^-2).
"""
import torch

META = {
    "name": "preq_hydrostatic",
    "level": 2,
    "category": "column-integral",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-1, "rtol": 1e-4}},
    "sizes": {
        "small": {"ncol": 40, "nlev": 10},
        "ragged": {"ncol": 77, "nlev": 13},
        "large": {"ncol": 86400, "nlev": 72},
    },
    "baseline_notes": "One program per block of 128 columns (4 warps) walks the levels from the surface to "
                      "the model top once, carrying the interface geopotential phi_i in registers: per level "
                      "one coalesced load of T_v, p and dp and one store of phi. No autotune.",
    "deterministic": True,
}
RGAS = 287.04      # HOMME Rgas (dry air), J kg^-1 K^-1
GRAV = 9.80616     # HOMME g, m s^-2
P0 = 100000.0
PTOP = 225.0       # model-top pressure (Pa), E3SM L72 hybrid coordinate top ~ 2.25 hPa


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """phis [ncol], T_v [nlev, ncol], p [nlev, ncol], dp [nlev, ncol] of a hybrid-pressure column set."""
    s = META["sizes"][size]
    ncol, nlev = s["ncol"], s["nlev"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    zs = torch.rand(ncol, generator=g) ** 3 * 3000.0                       # surface height, m
    ps = 101325.0 * torch.exp(-zs / 8000.0) + 1500.0 * torch.randn(ncol, generator=g)
    eta = torch.linspace(0.0, 1.0, nlev + 1).pow(1.6)[:, None]            # interfaces, top -> ground
    p_int = PTOP + (ps[None, :] - PTOP) * eta                              # [nlev + 1, ncol]
    dp = p_int[1:] - p_int[:-1]
    p = 0.5 * (p_int[1:] + p_int[:-1])
    z_approx = 7000.0 * torch.log(P0 / p)
    t_v = torch.clamp(288.0 - 0.0065 * z_approx, min=216.65) + 1.5 * torch.randn(nlev, ncol, generator=g)
    phis = GRAV * zs
    return tuple(x.to(device=device, dtype=dt).contiguous() for x in (phis, t_v, p, dp))


def reference(phis: torch.Tensor, t_v: torch.Tensor, p: torch.Tensor, dp: torch.Tensor) -> torch.Tensor:
    h = RGAS * t_v.double() * dp.double() / p.double()
    below = torch.flip(torch.cumsum(torch.flip(h, [0]), 0), [0]) - h      # sum over layers l > k
    return (phis.double()[None, :] + below + 0.5 * h).to(t_v.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["ncol"] * s["nlev"]
    return {"bytes": 16 * cells + 4 * s["ncol"], "flops": 6 * cells}
