"""BOUT++ parallel gradient Grad_par(f) = DDY(f) / sqrt(g_22) on a field-aligned grid, 4th-order central (C4).

BOUT++ models (STORM, Hermes, the tokamak edge examples) keep 3-D fields f(x, y, z) with y the parallel
(field-aligned) coordinate and z the binormal one, z contiguous in memory, and MYG = 2 guard cells at each
y boundary already filled by the parallel boundary conditions / communication. The parallel gradient on
the interior points is
    Grad_par f (x, y, z) = [8 (f[y+1] - f[y-1]) - (f[y+2] - f[y-2])] / (12 dy(x, y) sqrt(g_22(x, y)))
with the Field2D metric dy and g_22 per (x, y). Input f [NX, NY + 2 MYG, NZ] (guards included), dy and
g_22 [NX, NY]; output [NX, NY, NZ] (interior y only).
"""
import math

import torch

MYG = 2

META = {
    "name": "boutpp_grad_par_c4",
    "level": 1,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"NX": 6, "NY": 8, "NZ": 32},
        "ragged": {"NX": 5, "NY": 7, "NZ": 20},
        "large": {"NX": 256, "NY": 64, "NZ": 256},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over (x, block of 8 y) items; each loads the "
                      "four y-shifted [8, NZ] tiles of f (z contiguous), the dy and g_22 rows of the block, "
                      "and stores one [8, NZ] tile; no index division on tensors. No autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f [NX, NY + 4, NZ], dy [NX, NY], g_22 [NX, NY]."""
    s = META["sizes"][size]
    nx, ny, nz = s["NX"], s["NY"], s["NZ"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = (torch.arange(nx, dtype=torch.float64) + 0.5) / nx
    yg = (torch.arange(ny + 2 * MYG, dtype=torch.float64) - MYG + 0.5) * (2.0 * math.pi / ny)
    z = torch.arange(nz, dtype=torch.float64) * (2.0 * math.pi / nz)
    f = (torch.exp(-((x - 0.5) / 0.2) ** 2)[:, None, None] * (1.0 + 0.3 * torch.cos(yg))[None, :, None]
         * (1.0 + 0.2 * torch.sin(5.0 * z))[None, None, :])
    f = f + 0.1 * torch.randn(nx, ny + 2 * MYG, nz, generator=g, dtype=torch.float64)
    y = yg[MYG:MYG + ny]
    dy = (2.0 * math.pi / ny) * (1.0 + 0.02 * torch.rand(nx, ny, generator=g, dtype=torch.float64))
    q = 1.5 + 2.0 * x[:, None] ** 2
    g22 = (q * 3.0) ** 2 * (1.0 + 0.3 * x[:, None] * torch.cos(y)[None, :]) ** 2      # (q R)^2, R ~ R0 (1 + eps cos)
    return f.to(dt).to(device), dy.to(dt).to(device), g22.to(dt).to(device)


def reference(f: torch.Tensor, dy: torch.Tensor, g22: torch.Tensor) -> torch.Tensor:
    ny = f.shape[1] - 2 * MYG
    p = f.double()
    ddy = 8.0 * (p[:, MYG + 1:MYG + 1 + ny] - p[:, MYG - 1:MYG - 1 + ny]) - (p[:, MYG + 2:] - p[:, :ny])
    return (ddy / (12.0 * dy.double() * g22.double().sqrt())[:, :, None]).to(f.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    nx, ny, nz = s["NX"], s["NY"], s["NZ"]
    return {"bytes": 4 * nx * (ny + 2 * MYG) * nz + 4 * nx * ny * nz + 8 * nx * ny, "flops": 7 * nx * ny * nz}
