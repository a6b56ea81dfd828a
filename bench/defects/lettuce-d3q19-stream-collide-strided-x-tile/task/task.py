"""One fused D3Q19 BGK lattice Boltzmann step on a periodic box (lettuce's StandardStreaming + BGKCollision).

lettuce keeps the populations as one tensor f[q, x, y, z] (C order, so z is the contiguous axis) and
streams each direction with torch.roll(f[q], shifts=e[q]) on a periodic domain. The fused kernel does
the pull form of the same step, then the BGK collision at the arrival cell:
    f*(q, x)   = f(q, x - e_q)                      (periodic in x, y and z)
    rho        = sum_q f*(q, x),   rho u = sum_q e_q f*(q, x)
    feq(q)     = w_q rho (1 + 3 e_q.u + 4.5 (e_q.u)^2 - 1.5 u.u)
    f_new(q,x) = f*(q, x) - (f*(q, x) - feq(q)) / tau
Returns f_new [19, NX, NY, NZ] fp32.
"""
import math

import torch

META = {
    "name": "lbm_d3q19_stream_collide",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"NX": 8, "NY": 6, "NZ": 16},
        "ragged": {"NX": 10, "NY": 7, "NZ": 13},
        "large": {"NX": 256, "NY": 256, "NZ": 256},
    },
    "baseline_notes": "Grid (NX, NY, cdiv(NZ, BLOCK)), BLOCK = 128 cells along the contiguous z axis; each "
                      "program pulls a [32, BLOCK] tile (19 directions padded to 32, periodic wrap by "
                      "tl.where), reduces rho and u over the direction axis, relaxes to the second-order "
                      "equilibrium and stores the tile. 4 warps, no autotune.",
    "deterministic": True,
}

# D3Q19 velocities (rest, 6 faces, 12 edges) and weights, lettuce's ordering convention.
E = [[0, 0, 0],
     [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1],
     [0, 1, 1], [0, -1, -1], [0, 1, -1], [0, -1, 1],
     [1, 0, 1], [-1, 0, -1], [1, 0, -1], [-1, 0, 1],
     [1, 1, 0], [-1, -1, 0], [1, -1, 0], [-1, 1, 0]]
W = [1.0 / 3.0] + [1.0 / 18.0] * 6 + [1.0 / 36.0] * 12
# Taylor-Green vortex at Re 1600 on a 256^3 box: u0 = 0.02, L = 256 / (2 pi), nu = u0 L / Re, tau = 3 nu + 1/2.
TAU = 0.5 + 3.0 * 0.02 * (256 / (2 * math.pi)) / 1600.0


def _equilibrium(rho: torch.Tensor, u: torch.Tensor, e: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    eu = torch.einsum("qd,d...->q...", e, u)
    uu = (u * u).sum(0)
    return w.view(-1, *[1] * rho.dim()) * rho * (1.0 + 3.0 * eu + 4.5 * eu * eu - 1.5 * uu)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f [19, NX, NY, NZ] (Taylor-Green vortex at equilibrium plus a small non-equilibrium part),
    e int32 [19, 3], w [19], tau (float)."""
    s = META["sizes"][size]
    nx, ny, nz = s["NX"], s["NY"], s["NZ"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    x = torch.arange(nx, dtype=torch.float64).view(-1, 1, 1) * (2 * math.pi / nx)
    y = torch.arange(ny, dtype=torch.float64).view(1, -1, 1) * (2 * math.pi / ny)
    z = torch.arange(nz, dtype=torch.float64).view(1, 1, -1) * (2 * math.pi / nz)
    u0 = 0.02
    u = torch.stack([u0 * torch.sin(x) * torch.cos(y) * torch.cos(z),
                     -u0 * torch.cos(x) * torch.sin(y) * torch.cos(z),
                     torch.zeros(nx, ny, nz, dtype=torch.float64)])
    p = (u0 * u0 / 16.0) * (torch.cos(2 * x) + torch.cos(2 * y)) * (torch.cos(2 * z) + 2.0)
    rho = 1.0 + 3.0 * p
    uu = (u * u).sum(0)
    f = torch.empty(len(E), nx, ny, nz, dtype=dt)
    for q, (cq, wq) in enumerate(zip(E, W)):
        eu = cq[0] * u[0] + cq[1] * u[1] + cq[2] * u[2]
        feq = wq * rho * (1.0 + 3.0 * eu + 4.5 * eu * eu - 1.5 * uu)
        f[q] = feq * (1.0 + 1e-3 * torch.randn(feq.shape, generator=g, dtype=torch.float64))
    return (f.to(device), torch.tensor(E, dtype=torch.int32, device=device),
            torch.tensor(W, dtype=dt, device=device), TAU)


def reference(f: torch.Tensor, e: torch.Tensor, w: torch.Tensor, tau: float) -> torch.Tensor:
    fd = f.double()
    shifted = torch.stack([torch.roll(fd[q], shifts=tuple(int(v) for v in e[q]), dims=(0, 1, 2))
                           for q in range(fd.shape[0])])
    ed = e.double()
    rho = shifted.sum(0)
    u = torch.einsum("qd,q...->d...", ed, shifted) / rho
    feq = _equilibrium(rho, u, ed, w.double())
    return (shifted - (shifted - feq) / tau).to(f.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    cells = s["NX"] * s["NY"] * s["NZ"]
    return {"bytes": 2 * 19 * 4 * cells, "flops": 250 * cells}
