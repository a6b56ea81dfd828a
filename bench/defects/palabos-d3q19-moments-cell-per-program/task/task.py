"""D3Q19 macroscopic moments (density and velocity) of a cell-major lattice (Palabos computeDensity / computeVelocity).

Populations are stored cell by cell (AoS, f[z, y, x, q], Palabos' Cell<T, D3Q19> layout). For every cell
rho = sum_q f_q and u = sum_q c_q f_q / rho; the result is the moment field [4, nz, ny, nx] = (rho, ux, uy, uz).
"""
import torch

META = {
    "name": "d3q19_aos_moments",
    "level": 2,
    "category": "cfd",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"nz": 6, "ny": 8, "nx": 8},
        "ragged": {"nz": 5, "ny": 7, "nx": 11},
        "large": {"nz": 256, "ny": 256, "nx": 256},
    },
    "baseline_notes": "One program per 128 cells holding the cells' populations as a [128, 32] tile (19 of 32 "
                      "lanes live); velocities from constexpr bit masks; rho, j by row sums; 8 warps, no autotune.",
    "deterministic": True,
}

# Palabos D3Q19 velocity set (q = 0..18)
C = [(0, 0, 0), (-1, 0, 0), (0, -1, 0), (0, 0, -1), (-1, -1, 0), (-1, 1, 0), (-1, 0, -1), (-1, 0, 1),
     (0, -1, -1), (0, -1, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (1, -1, 0), (1, 0, 1),
     (1, 0, -1), (0, 1, 1), (0, 1, -1)]
W = [1 / 3] + [1 / 18] * 3 + [1 / 36] * 6 + [1 / 18] * 3 + [1 / 36] * 6


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f [nz, ny, nx, 19]: second-order equilibria of rho ~ 1 +- 0.05, |u| ~ 0.05, plus a small non-equilibrium part."""
    s = META["sizes"][size]
    nz, ny, nx = s["nz"], s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    c = torch.tensor(C, dtype=torch.float32)
    w = torch.tensor(W, dtype=torch.float32)
    rho = 1.0 + 0.05 * torch.randn(nz, ny, nx, 1, generator=g)
    u = 0.05 * torch.randn(nz, ny, nx, 3, generator=g)
    cu = u @ c.t()
    usq = (u * u).sum(-1, keepdim=True)
    f = w * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq)
    del cu
    f += 0.002 * w * torch.randn(nz, ny, nx, 19, generator=g)
    return (f.to(getattr(torch, dtype or META["dtypes"][0])).to(device),)


def reference(f: torch.Tensor) -> torch.Tensor:
    fd = f.double()
    c = torch.tensor(C, dtype=torch.float64, device=f.device)
    rho = fd.sum(-1)
    u = (fd @ c) / rho[..., None]
    return torch.cat([rho[None], u.permute(3, 0, 1, 2)], 0).to(f.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nz"] * s["ny"] * s["nx"]
    return {"bytes": 4 * n * (19 + 4), "flops": n * (19 + 3 * 19 + 3)}
