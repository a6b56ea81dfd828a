"""gprMax 3-D FDTD electric-field update on the Yee grid (update_electric of fields_updates_normal / the CUDA update_e kernel).

Arrays have (NX+1, NY+1, NZ+1) entries per component, as in gprMax. With m = ID[c, i, j, k] and
coefficient rows C[m] = (decay, dt/eps/dx, dt/eps/dy, dt/eps/dz, source):
  Ex += ... : Ex = C0 Ex + C2 (Hz[i,j,k]-Hz[i,j-1,k]) - C3 (Hy[i,j,k]-Hy[i,j,k-1])  for i<NX, 0<j<NY, 0<k<NZ
  Ey        : Ey = C0 Ey + C3 (Hx[i,j,k]-Hx[i,j,k-1]) - C1 (Hz[i,j,k]-Hz[i-1,j,k])  for 0<i<NX, j<NY, 0<k<NZ
  Ez        : Ez = C0 Ez + C1 (Hy[i,j,k]-Hy[i-1,j,k]) - C2 (Hx[i,j,k]-Hx[i,j-1,k])  for 0<i<NX, 0<j<NY, k<NZ
Every other entry keeps its old value. The step is returned as a new [3, NX+1, NY+1, NZ+1] tensor.
"""
import torch

META = {
    "name": "gprmax_fdtd_update_e",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NX": 6, "NY": 7, "NZ": 9},
        "ragged": {"NX": 11, "NY": 5, "NZ": 13},
        "large": {"NX": 300, "NY": 300, "NZ": 300},
    },
    "baseline_notes": "One launch over a 3-D grid (k block of 128, j block of 8, slab i): each program "
                      "loads E, the H neighbours and the material ids of its [8, 128] tile, gathers the "
                      "update coefficients, applies the three component updates where they are defined "
                      "and stores all three components; 4 warps, no autotune.",
    "deterministic": True,
}

EPS0 = 8.8541878128e-12
C0 = 299792458.0


def _coefficients(dx: float) -> torch.Tensor:
    """gprMax updatecoeffsE rows for pec, free_space, a lossy soil and a dielectric target."""
    dt = 1.0 / (C0 * (3.0 / dx ** 2) ** 0.5)
    rows = []
    for eps_r, sigma in ((1.0, float("inf")), (1.0, 0.0), (6.0, 0.01), (12.0, 0.0)):
        if sigma == float("inf"):
            rows.append([0.0, 0.0, 0.0, 0.0, 0.0])
            continue
        eps = eps_r * EPS0
        den = 1.0 + sigma * dt / (2.0 * eps)
        decay = (1.0 - sigma * dt / (2.0 * eps)) / den
        hc = dt / (eps * den)
        rows.append([decay, hc / dx, hc / dx, hc / dx, hc])
    return torch.tensor(rows, dtype=torch.float64)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """E [3, NX+1, NY+1, NZ+1], H [3, ...], ID [3, ...] int32 (material row per E component), C [4, 5]."""
    s = META["sizes"][size]
    NX, NY, NZ = s["NX"], s["NY"], s["NZ"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    shape = (3, NX + 1, NY + 1, NZ + 1)
    E = torch.randn(shape, generator=g)
    H = torch.randn(shape, generator=g) / 376.73
    ID = torch.ones(shape, dtype=torch.int32)
    ID[:, :, :, : (NZ + 1) // 2] = 2                      # soil half-space below the surface
    lo, hi = (NX + 1) // 3, 2 * (NX + 1) // 3
    ID[:, lo:hi, lo * (NY + 1) // (NX + 1): hi * (NY + 1) // (NX + 1), (NZ + 1) // 5: (NZ + 1) // 3] = 3
    ID[:, :, 0, :] = 0                                     # a pec plate at the y = 0 face
    ID = torch.where(torch.rand(shape, generator=g) < 0.02, torch.randint(0, 4, shape, generator=g,
                                                                          dtype=torch.int32), ID)
    coeffs = _coefficients(0.002)
    return E.to(device=device, dtype=dt), H.to(device=device, dtype=dt), ID.to(device), \
        coeffs.to(device=device, dtype=dt)


def reference(E: torch.Tensor, H: torch.Tensor, ID: torch.Tensor, coeffs: torch.Tensor) -> torch.Tensor:
    e, h, c = E.double(), H.double(), coeffs.double()
    Ex, Ey, Ez = e[0], e[1], e[2]
    Hx, Hy, Hz = h[0], h[1], h[2]
    nx, ny, nz = Ex.shape[0] - 1, Ex.shape[1] - 1, Ex.shape[2] - 1
    out = e.clone()
    m = ID[0].long()[:nx, 1:ny, 1:nz]
    out[0, :nx, 1:ny, 1:nz] = (c[m, 0] * Ex[:nx, 1:ny, 1:nz]
                               + c[m, 2] * (Hz[:nx, 1:ny, 1:nz] - Hz[:nx, 0:ny - 1, 1:nz])
                               - c[m, 3] * (Hy[:nx, 1:ny, 1:nz] - Hy[:nx, 1:ny, 0:nz - 1]))
    m = ID[1].long()[1:nx, :ny, 1:nz]
    out[1, 1:nx, :ny, 1:nz] = (c[m, 0] * Ey[1:nx, :ny, 1:nz]
                               + c[m, 3] * (Hx[1:nx, :ny, 1:nz] - Hx[1:nx, :ny, 0:nz - 1])
                               - c[m, 1] * (Hz[1:nx, :ny, 1:nz] - Hz[0:nx - 1, :ny, 1:nz]))
    m = ID[2].long()[1:nx, 1:ny, :nz]
    out[2, 1:nx, 1:ny, :nz] = (c[m, 0] * Ez[1:nx, 1:ny, :nz]
                               + c[m, 1] * (Hy[1:nx, 1:ny, :nz] - Hy[0:nx - 1, 1:ny, :nz])
                               - c[m, 2] * (Hx[1:nx, 1:ny, :nz] - Hx[1:nx, 0:ny - 1, :nz]))
    return out.to(E.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = (s["NX"] + 1) * (s["NY"] + 1) * (s["NZ"] + 1)
    return {"bytes": 3 * cells * (4 + 4 + 4 + 4), "flops": 3 * cells * 6}
