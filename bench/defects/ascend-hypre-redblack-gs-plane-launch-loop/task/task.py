"""Red/black Gauss-Seidel relaxation of a 3-D 7-point variable-coefficient operator (hypre struct solvers).

hypre's PFMG/SMG struct multigrid can relax with red/black Gauss-Seidel (hypre_RedBlackGS,
struct_ls/red_black_gs.c): the grid points are coloured by the parity of i + j + k, every red
point (parity 0) is updated from its six black neighbours, then every black point from its six
(now updated) red neighbours. For the 7-point stencil with coefficient arrays A[s] (hypre keeps one
box array per stencil entry) the update of point p is

    x_p <- (b_p - sum_{s=1..6} A[s]_p * x_{p + off_s}) / A[0]_p

with offsets off = (0, -x, +x, -y, +y, -z, +z); neighbours outside the box are the homogeneous
Dirichlet boundary (zero). One call does one full sweep (red half-sweep, then black) and returns the
relaxed iterate; the input iterate is left unchanged.
"""
import torch

META = {
    "name": "redblack_gauss_seidel_7pt",
    "level": 2,
    "category": "sparse-solver",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-4, "rtol": 1e-4}},
    "sizes": {
        "small": {"nz": 4, "ny": 5, "nx": 16},
        "ragged": {"nz": 3, "ny": 6, "nx": 21},
        "large": {"nz": 256, "ny": 256, "nx": 256},
    },
    "baseline_notes": "Two launches per sweep (red, black), each min(40, nz*ny) programs (the A2's vector "
                      "cores) striding over the (k, j) grid lines; a line is one contiguous tile of nx "
                      "points: the seven coefficient rows, b, and the x row with its six shifted / "
                      "neighbouring rows are contiguous loads, the new value is kept where the parity "
                      "matches the colour (tl.where) and the whole row is stored. The red half-sweep "
                      "reads the input and writes the output; the black one works in place on the output.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A [7, nz, ny, nx] stencil coefficients (centre, west, east, south, north, below, above), b and x [nz, ny, nx]."""
    s = META["sizes"][size]
    nz, ny, nx = s["nz"], s["ny"], s["nx"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    off = -(0.5 + torch.rand(6, nz, ny, nx, generator=g))      # variable diffusion coefficients
    diag = -off.sum(0) + 0.05 + 0.1 * torch.rand(nz, ny, nx, generator=g)
    A = torch.cat([diag[None], off], 0)
    b = torch.randn(nz, ny, nx, generator=g)
    x = torch.randn(nz, ny, nx, generator=g)
    return A.to(device=device, dtype=dt), b.to(device=device, dtype=dt), x.to(device=device, dtype=dt)


def _half_sweep(A: torch.Tensor, b: torch.Tensor, x: torch.Tensor, color: int) -> torch.Tensor:
    nz, ny, nx = x.shape
    xp = torch.nn.functional.pad(x, (1, 1, 1, 1, 1, 1))
    c = xp[1:-1, 1:-1, 1:-1]
    nb = (A[1] * xp[1:-1, 1:-1, :-2] + A[2] * xp[1:-1, 1:-1, 2:]
          + A[3] * xp[1:-1, :-2, 1:-1] + A[4] * xp[1:-1, 2:, 1:-1]
          + A[5] * xp[:-2, 1:-1, 1:-1] + A[6] * xp[2:, 1:-1, 1:-1])
    new = (b - nb) / A[0]
    k = torch.arange(nz, device=x.device)[:, None, None]
    j = torch.arange(ny, device=x.device)[None, :, None]
    i = torch.arange(nx, device=x.device)[None, None, :]
    mine = ((i + j + k) % 2) == color
    return torch.where(mine, new, c)


def reference(A: torch.Tensor, b: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    Ad, bd, xd = A.double(), b.double(), x.double()
    xd = _half_sweep(Ad, bd, xd, 0)
    xd = _half_sweep(Ad, bd, xd, 1)
    return xd.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nz"] * s["ny"] * s["nx"]
    # per half-sweep: 7 coefficient rows + b + x (neighbour rows mostly re-read from cache) + the store
    return {"bytes": 2 * 4 * n * (7 + 1 + 1 + 1), "flops": 2 * 14 * n}
