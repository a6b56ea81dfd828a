"""Conservative BGK (Krook) collision step on the per-vertex velocity grids of an XGC-style gyrokinetic code.

XGC keeps, at every vertex of the poloidal mesh, the distribution f(v_perp, v_par) on a 2-D velocity grid
normalised to the local thermal speed: f0_nmu + 1 = 32 points in v_perp (0 .. f0_smu_max = 3) times
2 * f0_nvp + 1 = 31 points in v_par (-3 .. 3), i.e. 992 values per vertex, stored here vertex-major
(f[vertex, imu, ivp], one vertex's grid contiguous, flattened to 992). The collision step relaxes each
vertex's f towards the shifted Maxwellian built from its own moments (a BGK operator in place of XGC's
Fokker-Planck-Landau solver):
    n   = sum_v vol f,   n u = sum_v vol v_par f,
    3 n T = sum_v vol ((v_par - u)^2 + v_perp^2) f = sum_v vol (v_par^2 + v_perp^2) f - n u^2
    f_M = n (2 pi T)^(-3/2) exp(-((v_par - u)^2 + v_perp^2) / (2 T))
    nu  = nu0 n / T^(3/2)                       (Coulomb collision frequency, normalised)
    f'  = f_M + (f - f_M) exp(-nu dt)           (the exact solution of df/dt = nu (f_M - f) over dt)
vol = 2 pi v_perp dv_perp dv_par is the velocity-space volume element (half weight at the grid's v_perp
ends, v_perp = 0 cell given dv_perp / 4 as radius); v_par, v_perp^2 and vol are per-velocity-point tables
shared by all vertices.
"""
import math

import torch

META = {
    "name": "xgc_bgk_collision_step",
    "level": 2,
    "category": "plasma-collision",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 2e-4}},
    "sizes": {
        "small": {"N": 24, "NMU": 16, "NVP": 15},
        "ragged": {"N": 37, "NMU": 17, "NVP": 19},
        "large": {"N": 65536, "NMU": 32, "NVP": 31},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 16 vertices; per block a first "
                      "loop over 128-point velocity chunks accumulates the four moment sums along the "
                      "contiguous axis, then a second loop over the same chunks evaluates the Maxwellian and "
                      "writes f'; every f element is read twice and written once. No autotune.",
    "deterministic": True,
}
VMAX = 3.0


def _velocity_tables(nmu: int, nvp: int) -> tuple:
    dvperp = VMAX / (nmu - 1)
    dvpar = 2.0 * VMAX / (nvp - 1)
    vperp = torch.arange(nmu, dtype=torch.float64) * dvperp
    vpar = torch.linspace(-VMAX, VMAX, nvp, dtype=torch.float64)
    radius = vperp.clone()
    radius[0] = dvperp / 4.0
    w = torch.ones(nmu, dtype=torch.float64)
    w[0] = w[-1] = 0.5
    vol_mu = 2.0 * math.pi * radius * dvperp * w
    vol = (vol_mu[:, None] * dvpar).expand(nmu, nvp).reshape(-1)
    vpar_t = vpar[None, :].expand(nmu, nvp).reshape(-1)
    vperp2_t = (vperp ** 2)[:, None].expand(nmu, nvp).reshape(-1)
    return vol, vpar_t, vperp2_t


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f [N, NMU*NVP], vol / v_par / v_perp^2 tables [NMU*NVP], nu0 * dt (float)."""
    s = META["sizes"][size]
    n, nmu, nvp = s["N"], s["NMU"], s["NVP"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    vol, vpar, vperp2 = _velocity_tables(nmu, nvp)
    dens = 1.0 + 0.3 * (torch.rand(n, 1, generator=g, dtype=torch.float64) - 0.5)
    flow = 0.4 * (torch.rand(n, 1, generator=g, dtype=torch.float64) - 0.5)
    tpar = 0.7 + 0.5 * torch.rand(n, 1, generator=g, dtype=torch.float64)
    tperp = 0.7 + 0.5 * torch.rand(n, 1, generator=g, dtype=torch.float64)
    f = dens / ((2.0 * math.pi) ** 1.5 * tperp * tpar.sqrt()) * torch.exp(
        -(vpar[None, :] - flow) ** 2 / (2.0 * tpar) - vperp2[None, :] / (2.0 * tperp))
    f = f * (1.0 + 0.05 * torch.randn(f.shape, generator=g, dtype=torch.float64))
    nu0_dt = 0.35
    return f.to(dt).to(device), vol.to(dt).to(device), vpar.to(dt).to(device), vperp2.to(dt).to(device), nu0_dt


def reference(f: torch.Tensor, vol: torch.Tensor, vpar: torch.Tensor, vperp2: torch.Tensor,
              nu0_dt: float) -> torch.Tensor:
    x, w, vp, vq = f.double(), vol.double(), vpar.double(), vperp2.double()
    wx = x * w[None, :]
    n = wx.sum(1, keepdim=True)
    u = (wx * vp[None, :]).sum(1, keepdim=True) / n
    e = (wx * (vp * vp + vq)[None, :]).sum(1, keepdim=True) / n
    t = (e - u * u) / 3.0
    fm = n / (2.0 * math.pi * t) ** 1.5 * torch.exp(-((vp[None, :] - u) ** 2 + vq[None, :]) / (2.0 * t))
    decay = torch.exp(-nu0_dt * n / t ** 1.5)
    return (fm + (x - fm) * decay).to(f.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n, nv = s["N"], s["NMU"] * s["NVP"]
    return {"bytes": 8 * n * nv + 12 * nv, "flops": 20 * n * nv}
