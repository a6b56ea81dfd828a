"""Weighted-Jacobi relaxation sweep of hypre's structured-grid multigrid (PFMG relax_type 1) on a 7-point stencil.

hypre's StructMatrix keeps one coefficient box per stencil entry, so the operator of a 3-D
variable-coefficient diffusion problem on an nz x ny x nx box is A[7, nz, ny, nx] with entries in the
order (centre, west, east, south, north, bottom, top). The iterate x is a StructVector with one ghost
layer on every side, x[nz + 2, ny + 2, nx + 2], filled by the halo exchange before the sweep. One sweep
computes, at every interior point p with ghosted neighbours x[p + e_s],
    x_new[p] = (1 - omega) * x[p] + omega * (b[p] - sum_{s=1..6} A[s, p] * x[p + e_s]) / A[0, p]
and returns the interior of x_new, [nz, ny, nx].
"""
import torch

META = {
    "name": "pfmg_weighted_jacobi_7pt",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"nx": 8, "ny": 6, "nz": 5},
        "ragged": {"nx": 13, "ny": 7, "nz": 3},
        "large": {"nx": 256, "ny": 256, "nz": 256},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over (z-plane, group of y-lines) work "
                      "items; each is a [BJ, next_power_of_2(nx)] tile (1024 points) addressed by its (j, i) "
                      "coordinates, so the 7 coefficient boxes, b, the centre and the 6 shifted neighbour "
                      "slices of the ghosted x and the output are all plain 2-D strided tiles; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A [7, nz, ny, nx] (diagonally dominant, negative off-diagonals), b [nz, ny, nx],
    x [nz+2, ny+2, nx+2] with its ghost layer, omega (float)."""
    s = META["sizes"][size]
    nx, ny, nz = s["nx"], s["ny"], s["nz"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    off = -(0.5 + torch.rand(6, nz, ny, nx, generator=g))
    off[4:6] *= 0.25                     # weaker z-couplings (anisotropic diffusion)
    centre = -off.sum(0) + 0.05 + 0.1 * torch.rand(nz, ny, nx, generator=g)
    a = torch.cat([centre[None], off], 0)
    b = torch.randn(nz, ny, nx, generator=g)
    x = torch.randn(nz + 2, ny + 2, nx + 2, generator=g)
    return a.to(dt).to(device), b.to(dt).to(device), x.to(dt).to(device), 0.8


def reference(a: torch.Tensor, b: torch.Tensor, x: torch.Tensor, omega: float) -> torch.Tensor:
    A, B, X = a.double(), b.double(), x.double()
    xc = X[1:-1, 1:-1, 1:-1]
    nbr = (X[1:-1, 1:-1, :-2], X[1:-1, 1:-1, 2:], X[1:-1, :-2, 1:-1], X[1:-1, 2:, 1:-1],
           X[:-2, 1:-1, 1:-1], X[2:, 1:-1, 1:-1])
    r = B.clone()
    for s, xs in enumerate(nbr, start=1):
        r = r - A[s] * xs
    return ((1.0 - omega) * xc + omega * r / A[0]).to(a.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nx"] * s["ny"] * s["nz"]
    ng = (s["nx"] + 2) * (s["ny"] + 2) * (s["nz"] + 2)
    return {"bytes": 4 * (7 * n + n + ng + n), "flops": 17 * n}
