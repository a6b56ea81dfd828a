"""Hydrostatic pressure anomaly of a Boussinesq ocean (Oceananigans.jl HydrostaticFreeSurfaceModel,
`update_hydrostatic_pressure!` with SeawaterBuoyancy and a LinearEquationOfState).

Fields are [Nz, Ny, Nx] with x contiguous and k = 0 the bottom level, k = Nz - 1 the top (Oceananigans'
ordering). Buoyancy at cell centres is b = g (alpha T - beta S). The kinematic hydrostatic pressure
anomaly satisfies dp/dz = b with p = 0 at the free surface z = 0, integrated downward from the top:
    p[Nz-1] = -b[Nz-1] * (0 - zc[Nz-1])
    p[k]    = p[k+1] - (b[k] + b[k+1]) / 2 * (zc[k+1] - zc[k])
with zc [Nz] the cell-centre heights of a stretched vertical grid (negative, increasing with k).
Returns p [Nz, Ny, Nx] fp32 (m^2 s^-2).
"""
import torch

META = {
    "name": "hydrostatic_pressure_anomaly",
    "level": 2,
    "category": "ocean-modelling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 1e-4}},
    "sizes": {
        "small": {"Nx": 8, "Ny": 5, "Nz": 6},
        "ragged": {"Nx": 13, "Ny": 7, "Nz": 9},
        "large": {"Nx": 1440, "Ny": 600, "Nz": 48},
    },
    "baseline_notes": "One program per block of 1024 water columns (x-y flattened, contiguous), looping from "
                      "the top level down: buoyancy of each level from T and S, trapezoid increment carried in "
                      "registers, one store per level. 4 warps, no autotune.",
    "deterministic": True,
}
DEPTH = 5000.0          # m, ocean depth of the stretched grid
ALPHA = 1.67e-4         # 1/K, Oceananigans LinearEquationOfState default thermal expansion
BETA = 7.80e-4          # 1/psu, default haline contraction
G = 9.80665             # m/s^2, Oceananigans' gravitational acceleration


def _centres(nz: int) -> torch.Tensor:
    """Cell centres of a grid stretched towards the surface (faces z_f = -H (1 - k/Nz)^1.8, k = 0 bottom)."""
    k = torch.arange(nz + 1, dtype=torch.float64)
    faces = -DEPTH * (1.0 - k / nz) ** 1.8
    return 0.5 * (faces[:-1] + faces[1:])


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Conservative temperature T [Nz, Ny, Nx] (deg C), salinity S [Nz, Ny, Nx] (psu), centre heights zc [Nz]
    (m), alpha (1/K), beta (1/psu)."""
    s = META["sizes"][size]
    nx, ny, nz = s["Nx"], s["Ny"], s["Nz"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    zc = _centres(nz)
    lat = torch.linspace(-75.0, 75.0, ny, dtype=torch.float64)
    surface = 28.0 * torch.cos(torch.deg2rad(lat)) ** 2 - 1.0                        # [Ny]
    decay = torch.exp(zc / 700.0)                                                     # [Nz]
    T = 1.5 + (surface[None, :, None] - 1.5) * decay[:, None, None]
    T = T + 0.5 * torch.randn(nz, ny, nx, generator=g, dtype=torch.float64) * decay[:, None, None]
    S = 34.7 + 0.6 * torch.sin(torch.deg2rad(2.0 * lat))[None, :, None] * decay[:, None, None]
    S = S + 0.05 * torch.randn(nz, ny, nx, generator=g, dtype=torch.float64)
    return (T.to(device=device, dtype=dt), S.to(device=device, dtype=dt), zc.to(device=device, dtype=dt),
            ALPHA, BETA)


def reference(T: torch.Tensor, S: torch.Tensor, zc: torch.Tensor, alpha: float, beta: float) -> torch.Tensor:
    b = G * (alpha * T.double() - beta * S.double())
    z = zc.double()
    p = torch.empty_like(b)
    nz = b.shape[0]
    p[nz - 1] = -b[nz - 1] * (0.0 - z[nz - 1])
    for k in range(nz - 2, -1, -1):
        p[k] = p[k + 1] - 0.5 * (b[k] + b[k + 1]) * (z[k + 1] - z[k])
    return p.to(T.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["Nx"] * s["Ny"] * s["Nz"]
    return {"bytes": 12 * n + 4 * s["Nz"], "flops": 7 * n}
