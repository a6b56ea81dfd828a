"""D3Q19 SRT (BGK) collision with a Smagorinsky LES eddy viscosity (waLBerla / lbmpy `smagorinsky=True`).

Populations in waLBerla's fzyx layout (SoA, f[q, z, y, x], stencil order C N S W E T B NW NE SW SE TN TS TW TE
BN BS BW BE). Per cell: rho, u, the second-order equilibrium feq, the non-equilibrium momentum flux
Pi_ab = sum_q c_qa c_qb (f_q - feq_q), |Pi| = sqrt(Pi:Pi), the local relaxation time
tau = (tau0 + sqrt(tau0^2 + 18 sqrt(2) Cs^2 |Pi| / rho)) / 2 (Hou et al. 1996), and f_out = f - (f - feq) / tau.
"""
import math

import torch

META = {
    "name": "d3q19_smagorinsky_srt_collide",
    "level": 2,
    "category": "cfd",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}},
    "sizes": {
        "small": {"nz": 8, "ny": 8, "nx": 8},
        "ragged": {"nz": 7, "ny": 9, "nx": 11},
        "large": {"nz": 256, "ny": 256, "nx": 256},
    },
    "baseline_notes": "One program per 128 cells holding the populations as a [128, 32] tile (19 of 32 lanes "
                      "live, q rows contiguous over cells); velocities from constexpr bit masks, weights by "
                      "tl.where; moments, feq, Pi by row sums; 4 warps, no autotune.",
    "deterministic": True,
}

C = [(0, 0, 0), (0, 1, 0), (0, -1, 0), (-1, 0, 0), (1, 0, 0), (0, 0, 1), (0, 0, -1), (-1, 1, 0), (1, 1, 0),
     (-1, -1, 0), (1, -1, 0), (0, 1, 1), (0, -1, 1), (-1, 0, 1), (1, 0, 1), (0, 1, -1), (0, -1, -1),
     (-1, 0, -1), (1, 0, -1)]
W = [1 / 3] + [1 / 18] * 6 + [1 / 36] * 12
TAU0 = 0.5 + 3.0 * 2e-4   # lattice viscosity 2e-4: a high-Reynolds-number LES
CS = 0.12


def _equilibrium(rho, u, c, w):
    """rho [1, ...], u [3, ...] -> feq [19, ...]"""
    cu = torch.einsum("qa,a...->q...", c, u)
    usq = (u * u).sum(0, keepdim=True)
    shape = (-1,) + (1,) * (u.dim() - 1)
    return w.view(shape) * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """f [19, nz, ny, nx]: equilibria of rho ~ 1 +- 0.03, |u| ~ 0.05 plus a non-equilibrium part; tau0, Cs."""
    s = META["sizes"][size]
    nz, ny, nx = s["nz"], s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    c = torch.tensor(C, dtype=torch.float32)
    w = torch.tensor(W, dtype=torch.float32)
    rho = 1.0 + 0.03 * torch.randn(1, nz, ny, nx, generator=g)
    u = 0.05 * torch.randn(3, nz, ny, nx, generator=g)
    f = _equilibrium(rho, u, c, w)
    f += 0.01 * w.view(-1, 1, 1, 1) * torch.randn(19, nz, ny, nx, generator=g)
    return f.to(getattr(torch, dtype or META["dtypes"][0])).to(device), TAU0, CS


def reference(f: torch.Tensor, tau0: float, cs: float) -> torch.Tensor:
    fd = f.double()
    c = torch.tensor(C, dtype=torch.float64, device=f.device)
    w = torch.tensor(W, dtype=torch.float64, device=f.device)
    rho = fd.sum(0, keepdim=True)
    u = torch.einsum("qa,q...->a...", c, fd) / rho
    fneq = fd - _equilibrium(rho, u, c, w)
    pi = torch.einsum("qa,qb,q...->ab...", c, c, fneq)
    pi_norm = (pi * pi).sum((0, 1)).sqrt()
    tau = 0.5 * (tau0 + torch.sqrt(tau0 * tau0 + 18.0 * math.sqrt(2.0) * cs * cs * pi_norm / rho[0]))
    return (fd - fneq / tau).to(f.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nz"] * s["ny"] * s["nx"]
    return {"bytes": 2 * 4 * 19 * n, "flops": 19 * 30 * n}
