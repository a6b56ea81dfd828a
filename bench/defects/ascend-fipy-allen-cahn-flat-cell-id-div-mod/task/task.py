"""Explicit Allen-Cahn step on a FiPy Grid2D (no-flux boundaries), one time step.

FiPy stores a CellVariable as a flat vector over the cells of a Grid2D(nx, ny), cell id = i + j * nx
(i along x, fastest). The explicit Allen-Cahn update of a non-conserved order parameter phi,
    d phi / dt = M * (kappa * lap(phi) - f'(phi)),    f(phi) = W phi^2 (1 - phi)^2,
    f'(phi) = 2 W phi (1 - phi) (1 - 2 phi),
uses FiPy's finite-volume Laplacian on a uniform grid (5-point: (e + w + n + s - 4 c) / dx^2) with
FiPy's default zero-flux boundary (a missing neighbour contributes no flux, i.e. it equals the cell):
    phi_new = phi + dt * M * (kappa * lap(phi) - f'(phi)).
Input and output are the cell values laid out as [ny, nx] (the flat FiPy vector, row j = y index).
"""
import torch

META = {
    "name": "fipy_allen_cahn_explicit_step",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"nx": 48, "ny": 20},
        "ragged": {"nx": 37, "ny": 23},
        "large": {"nx": 4096, "ny": 4096},
    },
    "baseline_notes": "Persistent grid of min(40, blocks) programs (the 910B4's vector cores) looping over "
                      "row chunks of 1024 cells: the row index is a per-block scalar, the centre, east and "
                      "west taps are contiguous loads of the row (shifted by one, masked at the ends, the "
                      "no-flux edge patched with tl.where on an i32 ==), north/south are the clamped "
                      "neighbour rows; one store per chunk; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """phi [ny, nx] (a few circular nuclei in a noisy matrix), dt, mobility M, gradient coefficient
    kappa, barrier height W, grid spacing dx."""
    s = META["sizes"][size]
    nx, ny = s["nx"], s["ny"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    y = torch.arange(ny, dtype=torch.float32)[:, None]
    x = torch.arange(nx, dtype=torch.float32)[None, :]
    phi = torch.zeros(ny, nx, dtype=torch.float32)
    for _ in range(6):
        cx, cy = torch.rand(2, generator=g, dtype=torch.float32) * torch.tensor([nx, ny])
        rad = (0.05 + 0.15 * torch.rand((), generator=g, dtype=torch.float32).item()) * min(nx, ny)
        r = torch.sqrt((x - cx) ** 2 + (y - cy) ** 2)
        phi = torch.maximum(phi, 0.5 * (1.0 + torch.tanh((rad - r) / 2.0)))
    phi = phi + 0.02 * torch.randn(ny, nx, generator=g, dtype=torch.float32)
    return phi.to(dt).to(device), 0.1, 1.0, 1.0, 1.0, 1.0


def reference(phi: torch.Tensor, dt: float, mobility: float, kappa: float, barrier: float,
              dx: float) -> torch.Tensor:
    p = phi.double()
    pad = torch.nn.functional.pad(p[None, None], (1, 1, 1, 1), mode="replicate")[0, 0]
    lap = (pad[1:-1, 2:] + pad[1:-1, :-2] + pad[2:, 1:-1] + pad[:-2, 1:-1] - 4.0 * p) / (dx * dx)
    dfdphi = 2.0 * barrier * p * (1.0 - p) * (1.0 - 2.0 * p)
    return (p + dt * mobility * (kappa * lap - dfdphi)).to(phi.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["nx"] * s["ny"]
    return {"bytes": 8 * n, "flops": 16 * n}
