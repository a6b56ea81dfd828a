"""Shallow-ice-approximation diffusive flux on the staggered grid (PISM SIAFD, isothermal Glen flow law, n = 3).

H and the ice surface elevation s come as PISM's ghosted local arrays: [My + 2, Mx + 2] with one ghost
cell on every side (stencil width 1). For every interior cell (j, i) (ghosted index (j+1, i+1)) the
kernel evaluates the two faces PISM stores in its staggered arrays:

  x-face (j, i+1/2):  s_x = (s[j,i+1] - s[j,i]) / dx
                      s_y = ((s[j+1,i] - s[j-1,i]) + (s[j+1,i+1] - s[j-1,i+1])) / (4 dy)
                      H_f = (H[j,i] + H[j,i+1]) / 2
  y-face (j+1/2, i):  s_y = (s[j+1,i] - s[j,i]) / dy
                      s_x = ((s[j,i+1] - s[j,i-1]) + (s[j+1,i+1] - s[j+1,i-1])) / (4 dx)
                      H_f = (H[j,i] + H[j+1,i]) / 2
  D = Gamma * H_f^(n+2) * |grad s|^(n-1),  Gamma = 2 A (rho g)^n / (n + 2),  q = -D * (s_x or s_y)

Returns (q_x [My, Mx], q_y [My, Mx]) in m^2 / year (A in Pa^-3 year^-1, rho = 910, g = 9.81).
"""
import math

import torch

RHO = 910.0
GRAV = 9.81

META = {
    "name": "sia_staggered_flux",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-2, "rtol": 2e-4}},
    "sizes": {
        "small": {"My": 6, "Mx": 9},
        "ragged": {"My": 7, "Mx": 13},
        "large": {"My": 2801, "Mx": 1501},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over 8 x 128 tiles of interior cells "
                      "(tile row and column from the scalar tile index); the eight surface and three "
                      "thickness neighbours are contiguous row loads from the ghosted arrays at +-1 and "
                      "+-(Mx + 2) offsets, both faces computed in fp32 and stored row-contiguously; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """H_ghosted [My+2, Mx+2] (m), s_ghosted [My+2, Mx+2] (m), dx (m), dy (m), A (Pa^-3 a^-1)."""
    s = META["sizes"][size]
    my, mx = s["My"], s["Mx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    lx, ly = 1.5e6, 2.8e6                                  # Greenland-sized domain (PISM 1 km: 1501 x 2801)
    dx, dy = lx / (mx - 1), ly / (my - 1)
    x = (torch.arange(-1, mx + 1, dtype=torch.float64) * dx)[None, :]
    y = (torch.arange(-1, my + 1, dtype=torch.float64) * dy)[:, None]
    # Vialov-type dome (n = 3) on a bumpy bed with metre-scale roughness, ice-free margins
    r = torch.sqrt(((x - 0.5 * lx) / (0.42 * lx)) ** 2 + ((y - 0.5 * ly) / (0.44 * ly)) ** 2)
    H = 3000.0 * torch.clamp(1.0 - r ** (4.0 / 3.0), min=0.0) ** (3.0 / 8.0)
    H = H + 2.0 * torch.randn(my + 2, mx + 2, generator=g, dtype=torch.float64)
    H = torch.where(r < 1.0, H.clamp(min=0.0), torch.zeros_like(H))
    bed = 400.0 * torch.sin(x / 9.0e4) * torch.cos(y / 1.3e5) - 150.0 + torch.randn(my + 2, mx + 2, generator=g,
                                                                                       dtype=torch.float64)
    surf = torch.maximum(bed + H, (1.0 - RHO / 1028.0) * H)   # floating where the bed is deep
    A = 1.0e-16
    return H.to(device=device, dtype=dt), surf.to(device=device, dtype=dt), dx, dy, A


def reference(H: torch.Tensor, s: torch.Tensor, dx: float, dy: float, A: float) -> tuple:
    h, z = H.double(), s.double()
    gamma = 2.0 * A * (RHO * GRAV) ** 3 / 5.0
    c, e, w, n, so = z[1:-1, 1:-1], z[1:-1, 2:], z[1:-1, :-2], z[2:, 1:-1], z[:-2, 1:-1]
    ne, se, nw = z[2:, 2:], z[:-2, 2:], z[2:, :-2]
    sx = (e - c) / dx
    sy = ((n - so) + (ne - se)) / (4.0 * dy)
    hf = 0.5 * (h[1:-1, 1:-1] + h[1:-1, 2:])
    qx = -gamma * hf ** 5 * (sx * sx + sy * sy) * sx
    sy = (n - c) / dy
    sx = ((e - w) + (ne - nw)) / (4.0 * dx)
    hf = 0.5 * (h[1:-1, 1:-1] + h[2:, 1:-1])
    qy = -gamma * hf ** 5 * (sx * sx + sy * sy) * sy
    return qx.to(H.dtype), qy.to(H.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["My"] * s["Mx"]
    return {"bytes": 4 * 2 * (s["My"] + 2) * (s["Mx"] + 2) + 8 * cells, "flops": 40 * cells}
