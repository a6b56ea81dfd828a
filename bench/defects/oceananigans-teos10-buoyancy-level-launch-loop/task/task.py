"""Seawater buoyancy from the TEOS-10 polynomial equation of state (Oceananigans.jl SeawaterBuoyancy with
SeawaterPolynomials.TEOS10EquationOfState: the 55-term Roquet et al. (2015) Boussinesq polynomial).

Fields are [Nz, Ny, Nx] with x contiguous and k = 0 the bottom level; zc [Nz] are the cell-centre heights
(m, negative) of a stretched z-grid. With tau = Theta / 40, s = sqrt((S_A + 32) / S_u) (S_u = 40 * 35.16504 / 35)
and zeta = -z / 1e4,
    rho = r0(zeta) + r'(tau, s, zeta)          (kg/m^3, the polyTEOS10 fit)
    b   = -g (rho - rho_ref) / rho_ref         (rho_ref = 1020 kg/m^3, g = 9.80665 m/s^2)
Returns b [Nz, Ny, Nx] fp32 (m/s^2).
"""
import torch

META = {
    "name": "teos10_buoyancy",
    "level": 1,
    "category": "ocean-modelling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 5e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"Nx": 16, "Ny": 8, "Nz": 5},
        "ragged": {"Nx": 19, "Ny": 7, "Nz": 3},
        "large": {"Nx": 360, "Ny": 180, "Nz": 50},
    },
    "baseline_notes": "One launch over a 2-D grid (blocks of 1024 horizontal points, levels): each program loads "
                      "its level's height once, evaluates the polynomial in Horner form per point (fp32), one "
                      "load of Theta and S_A and one store per point. 4 warps, no autotune.",
    "deterministic": True,
}
DEPTH = 5000.0
RHO_REF = 1020.0
G = 9.80665
S_U = 40.0 * 35.16504 / 35.0
R0 = (4.6494977072e+01, -5.2099962525e+00, 2.2601900708e-01, 6.4326772569e-02, 1.5616995503e-02,
      -1.7243708991e-03)
# R[ijk]: coefficient of s^i tau^j zeta^k (polyTEOS10 / SeawaterPolynomials.jl TEOS10)
R = {
    "000": 8.0189615746e+02, "100": 8.6672408165e+02, "200": -1.7864682637e+03, "300": 2.0375295546e+03,
    "400": -1.2849161071e+03, "500": 4.3227585684e+02, "600": -6.0579916612e+01, "010": 2.6010145068e+01,
    "110": -6.5281885265e+01, "210": 8.1770425108e+01, "310": -5.6888046321e+01, "410": 1.7681814114e+01,
    "510": -1.9193502195e+00, "020": -3.7074170417e+01, "120": 6.1548258127e+01, "220": -6.0362551501e+01,
    "320": 2.9130021253e+01, "420": -5.4723692739e+00, "030": 2.1661789529e+01, "130": -3.3449108469e+01,
    "230": 1.9717078466e+01, "330": -3.1742946532e+00, "040": -8.3627885467e+00, "140": 1.1311538584e+01,
    "240": -5.3563304045e+00, "050": 5.4048723791e-01, "150": 4.8169980163e-01, "060": -1.9083568888e-01,
    "001": 1.9681925209e+01, "101": -4.2549998214e+01, "201": 5.0774768218e+01, "301": -3.0938076334e+01,
    "401": 6.6051753097e+00, "011": -1.3336301113e+01, "111": -4.4870114575e+00, "211": 5.0042598061e+00,
    "311": -6.5399043664e-01, "021": 6.7080479603e+00, "121": 3.5063081279e+00, "221": -1.8795372996e+00,
    "031": -2.4649669534e+00, "131": -5.5077101279e-01, "041": 5.5927935970e-01, "002": 2.0660924175e+00,
    "102": -4.9527603989e+00, "202": 2.5019633244e+00, "012": 2.0564311499e+00, "112": -2.1311365518e-01,
    "022": -1.2419983026e+00, "003": -2.3342758797e-02, "103": -1.8507636718e-02, "013": 3.7969820455e-01,
}


def _centres(nz: int) -> torch.Tensor:
    """Cell centres of a z-grid stretched towards the surface (faces -H (1 - k/Nz)^1.8, k = 0 bottom)."""
    k = torch.arange(nz + 1, dtype=torch.float64)
    faces = -DEPTH * (1.0 - k / nz) ** 1.8
    return 0.5 * (faces[:-1] + faces[1:])


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Conservative temperature Theta [Nz, Ny, Nx] (deg C), absolute salinity S_A [Nz, Ny, Nx] (g/kg) and the
    cell-centre heights zc [Nz] (m)."""
    sz = META["sizes"][size]
    nx, ny, nz = sz["Nx"], sz["Ny"], sz["Nz"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    zc = _centres(nz)
    lat = torch.linspace(-78.0, 78.0, ny, dtype=torch.float64)
    decay = torch.exp(zc / 800.0)[:, None, None]
    theta = 1.0 + (29.0 * torch.cos(torch.deg2rad(lat)) ** 2 - 2.5)[None, :, None] * decay
    theta = theta + 0.4 * torch.randn(nz, ny, nx, generator=g, dtype=torch.float64) * decay
    sa = 34.9 + 0.8 * torch.sin(torch.deg2rad(2.0 * lat))[None, :, None] * decay
    sa = sa + 0.1 * torch.randn(nz, ny, nx, generator=g, dtype=torch.float64)
    return theta.to(device=device, dtype=dt), sa.to(device=device, dtype=dt), zc.to(device=device, dtype=dt)


def _poly(s: torch.Tensor, tau: torch.Tensor, zeta: torch.Tensor) -> torch.Tensor:
    """sum R[ijk] s^i tau^j zeta^k plus the reference profile r0(zeta) * zeta (plain sums, not Horner)."""
    rho = torch.zeros_like(s)
    for key, c in R.items():
        i, j, k = (int(ch) for ch in key)
        rho = rho + c * s ** i * tau ** j * zeta ** k
    r0 = sum(c * zeta ** (n + 1) for n, c in enumerate(R0))
    return rho + r0


def reference(theta: torch.Tensor, sa: torch.Tensor, zc: torch.Tensor) -> torch.Tensor:
    tau = theta.double() / 40.0
    s = torch.sqrt((sa.double() + 32.0) / S_U)
    zeta = (-zc.double() / 1e4)[:, None, None].expand_as(tau)
    rho = _poly(s, tau, zeta)
    return (-G * (rho - RHO_REF) / RHO_REF).to(theta.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    sz = META["sizes"][size]
    n = sz["Nx"] * sz["Ny"] * sz["Nz"]
    return {"bytes": 12 * n + 4 * sz["Nz"], "flops": 130 * n}
