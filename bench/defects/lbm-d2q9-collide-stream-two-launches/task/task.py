"""One D2Q9 lattice-Boltzmann time step (BGK collision then streaming) on a periodic 2-D grid, SoA populations."""
import torch

META = {
    "name": "lbm_d2q9_bgk_step",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-6, "rtol": 1e-5}},
    "sizes": {
        "small": {"NY": 24, "NX": 40},
        "ragged": {"NY": 17, "NX": 37},
        "large": {"NY": 4096, "NX": 4096},
    },
    "baseline_notes": "One kernel per step, grid (row, block of 1024 columns): load the 9 populations of each node, "
                      "BGK-collide in registers, push each post-collision population to its periodic neighbour.",
    "deterministic": True,
}

# D2Q9 lattice: rest, 4 axis links, 4 diagonals
CX = (0, 1, 0, -1, 0, 1, -1, -1, 1)
CY = (0, 0, 1, 0, -1, 1, 1, -1, -1)
W = (4 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 9, 1 / 36, 1 / 36, 1 / 36, 1 / 36)


def _equilibrium(rho: torch.Tensor, ux: torch.Tensor, uy: torch.Tensor) -> torch.Tensor:
    usq = ux * ux + uy * uy
    feq = []
    for cx, cy, w in zip(CX, CY, W, strict=True):
        cu = cx * ux + cy * uy
        feq.append(w * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq))
    return torch.stack(feq)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Populations f [9, NY, NX] near equilibrium of a perturbed shear flow, and the BGK relaxation rate omega."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    ny, nx = s["NY"], s["NX"]
    yy = torch.arange(ny, dtype=torch.float64)[:, None].expand(ny, nx)
    rho = 1.0 + 0.02 * torch.rand(ny, nx, generator=g, dtype=torch.float64)
    ux = 0.05 * torch.sin(2 * torch.pi * yy / ny) + 0.01 * torch.randn(ny, nx, generator=g, dtype=torch.float64)
    uy = 0.01 * torch.randn(ny, nx, generator=g, dtype=torch.float64)
    f = _equilibrium(rho, ux, uy) * (1.0 + 0.01 * torch.randn(9, ny, nx, generator=g, dtype=torch.float64))
    omega = 1.0 / 0.56  # tau = 0.56, kinematic viscosity (tau - 1/2) / 3 = 0.02
    return f.to(dt).contiguous().to(device), omega


def reference(f: torch.Tensor, omega: float) -> torch.Tensor:
    f64 = f.double()
    rho = f64.sum(0)
    cx = torch.tensor(CX, dtype=torch.float64, device=f.device)[:, None, None]
    cy = torch.tensor(CY, dtype=torch.float64, device=f.device)[:, None, None]
    ux = (cx * f64).sum(0) / rho
    uy = (cy * f64).sum(0) / rho
    post = f64 - omega * (f64 - _equilibrium(rho, ux, uy))
    out = torch.stack([torch.roll(post[i], shifts=(CY[i], CX[i]), dims=(0, 1)) for i in range(9)])
    return out.to(f.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["NY"] * s["NX"]
    return {"bytes": 2 * 9 * 4 * n, "flops": 150 * n}
