"""Upwinded Darcy face velocities of ParFlow's Richards-equation residual (nl_function_eval / velocity output).

On a box grid of nz x ny x nx cells (spacing dx, dy, and layer thickness dz * zmult[k], ParFlow's
variable-dz multipliers), with pressure head p, relative permeability kr (van Genuchten, PhaseRelPerm,
evaluated at p) and saturated permeabilities kx, ky, kz, ParFlow's flux terms use the harmonic mean of
the two cells' permeabilities (PMean) and the *upstream* cell's relative permeability (RPMean, upstream
weighting: the cell whose potential is higher). Density and viscosity are 1, gravity g. Velocities at the
right (+x), front (+y) and upper (+z) face of every cell:
    vx = H(kx_c, kx_e) * kr_up * (p_c - p_e) / dx,        up = c if p_c - p_e >= 0 else e
    vy = H(ky_c, ky_n) * kr_up * (p_c - p_n) / dy,        up = c if p_c - p_n >= 0 else n
    vz = H(kz_c, kz_u) * kr_up * (lo - hi),               up = c if lo >= hi else u
with H(a, b) = 2ab / (a + b) (0 when a + b = 0), sep = dz * (zmult[k] + zmult[k+1]) / 2,
lo = p_c / sep - g * zmult[k] / (zmult[k] + zmult[k+1]), hi = p_u / sep + g * zmult[k+1] / (zmult[k] + zmult[k+1]).
Faces on the domain's far boundary (last column, row, layer) are 0 (ParFlow's boundary-condition terms
handle them). Returns (vx, vy, vz), fp32 [nz, ny, nx] each.
"""
import torch

META = {
    "name": "parflow_richards_face_velocity",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-7, "rtol": 1e-4}},
    "sizes": {
        "small": {"nz": 4, "ny": 5, "nx": 8},
        "ragged": {"nz": 5, "ny": 7, "nx": 11},
        "large": {"nz": 10, "ny": 1024, "nx": 1024},
    },
    "baseline_notes": "40 programs (the 910B's vector cores) loop over (layer, block of rows) pairs, a "
                      "[1024 // next_power_of_2(nx), next_power_of_2(nx)] tile with x contiguous; the east, "
                      "north and upper neighbours are shifted masked loads of p, kr and the permeability, "
                      "the upstream kr a tl.where between the two loaded tiles; no autotune.",
    "deterministic": True,
}
# ParFlow-CONUS 2.0 layer thicknesses (bottom to top, m) with dz = 1: the top is the thin soil column.
CONUS2_DZ = [200.0, 100.0, 50.0, 25.0, 10.0, 5.0, 1.0, 0.6, 0.3, 0.1]
VG_ALPHA, VG_N = 2.0, 2.0   # van Genuchten alpha (1/m) and n


def _van_genuchten_kr(p: torch.Tensor) -> torch.Tensor:
    """Mualem-van Genuchten relative permeability (ParFlow's PhaseRelPerm VanGenuchten), 1 when saturated."""
    m = 1.0 - 1.0 / VG_N
    ah = (VG_ALPHA * (-p).clamp_min(0.0))
    s = 1.0 + ah ** VG_N
    kr = (1.0 - ah ** (VG_N - 1.0) * s ** (-m)) ** 2 / s ** (m / 2.0)
    return torch.where(p >= 0, torch.ones_like(p), kr)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """p, kr, kx, ky, kz [nz, ny, nx]; zmult [nz]; dx, dy, dz, gravity (floats)."""
    s = META["sizes"][size]
    nz, ny, nx = s["nz"], s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    zmult = torch.tensor((CONUS2_DZ * ((nz + 9) // 10))[-nz:], dtype=torch.float64)
    dz = 1.0
    zc = torch.cumsum(zmult * dz, 0) - 0.5 * zmult * dz           # cell-centre height above the bottom
    depth = zc[-1] + 0.5 * zmult[-1] * dz
    yy, xx = torch.meshgrid(torch.linspace(0, 1, ny, dtype=torch.float64),
                            torch.linspace(0, 1, nx, dtype=torch.float64), indexing="ij")
    wt = depth - 1.5 - 1.0 * torch.sin(6.0 * xx) * torch.cos(4.0 * yy) \
        - 0.5 * torch.rand(ny, nx, generator=g, dtype=torch.float64)   # water table ~0.5-3 m deep
    p = wt[None] - zc[:, None, None] + 0.05 * torch.randn(nz, ny, nx, generator=g, dtype=torch.float64)
    kr = _van_genuchten_kr(p)
    kx = 10.0 ** (-3.0 + 2.5 * torch.rand(nz, ny, nx, generator=g, dtype=torch.float64))   # m/h
    ky = kx * (0.5 + torch.rand(nz, ny, nx, generator=g, dtype=torch.float64))
    kz = 0.1 * kx
    to = lambda t: t.to(dt).to(device)
    return (to(p), to(kr), to(kx), to(ky), to(kz), to(zmult), 1000.0, 1000.0, dz, 1.0)


def _hmean(a, b):
    s = a + b
    return torch.where(s > 0, 2.0 * a * b / torch.where(s > 0, s, torch.ones_like(s)), torch.zeros_like(s))


def reference(p, kr, kx, ky, kz, zmult, dx, dy, dz, gravity) -> tuple:
    p, kr, kx, ky, kz, zm = (t.double() for t in (p, kr, kx, ky, kz, zmult))
    vx, vy, vz = (torch.zeros_like(p) for _ in range(3))
    d = p[:, :, :-1] - p[:, :, 1:]
    vx[:, :, :-1] = _hmean(kx[:, :, :-1], kx[:, :, 1:]) * torch.where(d >= 0, kr[:, :, :-1], kr[:, :, 1:]) * d / dx
    d = p[:, :-1, :] - p[:, 1:, :]
    vy[:, :-1, :] = _hmean(ky[:, :-1, :], ky[:, 1:, :]) * torch.where(d >= 0, kr[:, :-1, :], kr[:, 1:, :]) * d / dy
    z0, z1 = zm[:-1, None, None], zm[1:, None, None]
    sep = dz * 0.5 * (z0 + z1)
    lo = p[:-1] / sep - gravity * z0 / (z0 + z1)
    hi = p[1:] / sep + gravity * z1 / (z0 + z1)
    vz[:-1] = _hmean(kz[:-1], kz[1:]) * torch.where(lo >= hi, kr[:-1], kr[1:]) * (lo - hi)
    return vx.to(torch.float32), vy.to(torch.float32), vz.to(torch.float32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nz"] * s["ny"] * s["nx"]
    return {"bytes": 4 * 5 * n + 4 * 3 * n + 4 * s["nz"], "flops": 30 * n}
