"""Implicit vertical diffusion of a tracer (ROMS step3d_t.F, the tridiagonal solve of the vertical mixing term).

ROMS advances a tracer t on terrain-following s-levels with the vertical diffusion term taken implicitly.
Fields are [N, Ny, Nx] with x contiguous and k = 0 the bottom level, k = N - 1 the top (ROMS' k = 1..N).
Hz [N, Ny, Nx] is the thickness of each level, Akt [N-1, Ny, Nx] the vertical diffusivity at the interior
w-points (interface k lies between levels k and k+1; no flux through the bottom and the surface).
With FC_k = -dt Akt_k / (z_r[k+1] - z_r[k]) and z_r[k+1] - z_r[k] = (Hz_k + Hz_{k+1}) / 2, each column solves
    FC_{k-1} x_{k-1} + (Hz_k - FC_k - FC_{k-1}) x_k + FC_k x_{k+1} = Hz_k t_k        (FC_{-1} = FC_{N-1} = 0)
for the new tracer x (Thomas algorithm, as in ROMS: CF/DC forward sweep, back substitution).
Returns x [N, Ny, Nx] fp32.
"""
import torch

META = {
    "name": "implicit_vertical_diffusion",
    "level": 2,
    "category": "ocean-modelling",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"Nx": 6, "Ny": 4, "N": 8},
        "ragged": {"Nx": 7, "Ny": 3, "N": 5},
        "large": {"Nx": 1024, "Ny": 1024, "N": 50},
    },
    "baseline_notes": "One program per block of 256 adjacent water columns (x-y flattened, contiguous loads); "
                      "forward sweep from the bottom keeping FC, CF and DC of the level below in registers, CF "
                      "to a scratch array and DC into the output, then back substitution from the top. "
                      "4 warps, no autotune.",
    "deterministic": True,
}
THETA_S, THETA_B, HC = 7.0, 2.0, 250.0      # ROMS Vtransform 2 / Vstretching 4 parameters
DT = 300.0                                  # s, baroclinic time step of a 1/12 degree regional grid


def _stretching(n: int) -> torch.Tensor:
    """ROMS Vstretching = 4 C(s) at the w-points s = -1..0 (n + 1 values)."""
    s = torch.linspace(-1.0, 0.0, n + 1, dtype=torch.float64)
    c = (1.0 - torch.cosh(THETA_S * s)) / (torch.cosh(torch.tensor(THETA_S, dtype=torch.float64)) - 1.0)
    return (torch.exp(THETA_B * c) - 1.0) / (1.0 - torch.exp(torch.tensor(-THETA_B, dtype=torch.float64))), s


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Tracer t [N, Ny, Nx] (deg C), level thickness Hz [N, Ny, Nx] (m), diffusivity Akt [N-1, Ny, Nx]
    (m^2/s) and the time step dt (s)."""
    sz = META["sizes"][size]
    nx, ny, n = sz["Nx"], sz["Ny"], sz["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    h = 30.0 + 3970.0 * torch.rand(ny, nx, generator=g, dtype=torch.float64)            # bathymetry
    c, s = _stretching(n)
    z0 = (HC * s[:, None, None] + h[None] * c[:, None, None]) / (HC + h[None])           # Vtransform 2
    z_w = h[None] * z0                                                                   # [N+1, Ny, Nx]
    hz = z_w[1:] - z_w[:-1]
    z_r = 0.5 * (z_w[1:] + z_w[:-1])
    t = 2.0 + 22.0 * torch.exp(z_r / 400.0) + 0.3 * torch.randn(n, ny, nx, generator=g, dtype=torch.float64)
    mld = 20.0 + 80.0 * torch.rand(ny, nx, generator=g, dtype=torch.float64)             # mixed layer depth
    z_i = z_w[1:-1]
    akt = 1e-5 + 5e-2 * torch.sigmoid((z_i + mld[None]) / 5.0) * torch.rand(n - 1, ny, nx, generator=g,
                                                                             dtype=torch.float64)
    return t.to(device=device, dtype=dt), hz.to(device=device, dtype=dt), akt.to(device=device, dtype=dt), DT


def reference(t: torch.Tensor, Hz: torch.Tensor, Akt: torch.Tensor, dt: float) -> torch.Tensor:
    tt, hz, ak = t.double(), Hz.double(), Akt.double()
    n = tt.shape[0]
    fc = -dt * ak / (0.5 * (hz[:-1] + hz[1:]))            # [N-1]
    zero = torch.zeros_like(tt[0])
    cf = torch.empty_like(tt)
    dc = torch.empty_like(tt)
    prev_fc, prev_cf, prev_dc = zero, zero, zero
    for k in range(n):
        fck = fc[k] if k < n - 1 else zero
        inv = 1.0 / (hz[k] - fck - prev_fc - prev_fc * prev_cf)
        cf[k] = inv * fck
        dc[k] = inv * (hz[k] * tt[k] - prev_fc * prev_dc)
        prev_fc, prev_cf, prev_dc = fck, cf[k], dc[k]
    x = torch.empty_like(tt)
    x[n - 1] = dc[n - 1]
    for k in range(n - 2, -1, -1):
        x[k] = dc[k] - cf[k] * x[k + 1]
    return x.to(t.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    sz = META["sizes"][size]
    cells = sz["Nx"] * sz["Ny"] * sz["N"]
    return {"bytes": 4 * (4 * cells - sz["Nx"] * sz["Ny"]), "flops": 14 * cells}
