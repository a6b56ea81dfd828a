"""Cell-wise L2 error of a finite-element solution (deal.II VectorTools::integrate_difference, NormType::L2_norm).

deal.II evaluates the discrete solution u_h and the exact solution u at the quadrature points of every cell
(FEValues::get_function_values / Function::value_list) and integrates the squared difference with the
quadrature weights mapped to the cell (JxW):
    err[K] = sqrt( sum_q (u_h(x_q) - u(x_q))^2 * JxW_q )
returned as the per-cell error vector (Vector<float> difference_per_cell) that compute_global_error and the
adaptive refinement read. Here the mesh is a hexahedral Q1 mesh with QGauss(2): 8 quadrature points per cell,
values stored cell-major, [n_cells, n_q] fp32 each.
"""
import math

import torch

META = {
    "name": "cellwise_l2_error",
    "level": 1,
    "category": "fem-quadrature",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-12, "rtol": 1e-4}},
    "sizes": {
        "small": {"C": 64, "Q": 8},
        "ragged": {"C": 77, "Q": 8},
        "large": {"C": 2097152, "Q": 8},
    },
    "baseline_notes": "40 programs (the A2's vector cores) loop over blocks of 256 cells; each block is a "
                      "[256 cells, 8 points] tile read row-contiguously from the three cell-major arrays, "
                      "(u_h - u)^2 * JxW reduced along the point axis, sqrt, one contiguous store; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """u_h at the quadrature points [C, Q], exact u there [C, Q], JxW [C, Q] (a 128^3-cell unit cube, QGauss(2))."""
    s = META["sizes"][size]
    n_cells, n_q = s["C"], s["Q"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    h = 1.0 / 128.0
    centre = torch.rand(n_cells, 3, generator=g, dtype=torch.float64)
    # the 2x2x2 Gauss points at +-1/sqrt(3) of the reference cell, mapped to a cell of width h (lexicographic)
    ref = torch.tensor([[(i & 1) * 2 - 1, ((i >> 1) & 1) * 2 - 1, ((i >> 2) & 1) * 2 - 1] for i in range(n_q)],
                       dtype=torch.float64) / math.sqrt(3.0)
    x = centre[:, None, :] + 0.5 * h * ref[None, :, :]
    u = torch.sin(math.pi * x[..., 0]) * torch.sin(math.pi * x[..., 1]) * torch.sin(math.pi * x[..., 2])
    # a Q1 solution is second-order accurate: pointwise errors of a few h^2
    uh = u + (3.0 * h * h) * torch.randn(n_cells, n_q, generator=g, dtype=torch.float64)
    # mildly distorted cells: JxW = det(J) * w_q with w_q = 1 on [-1, 1]^3
    jxw = (h ** 3 / 8.0) * (1.0 + 0.2 * (torch.rand(n_cells, n_q, generator=g, dtype=torch.float64) - 0.5))
    return uh.to(dt).to(device), u.to(dt).to(device), jxw.to(dt).to(device)


def reference(uh: torch.Tensor, u: torch.Tensor, jxw: torch.Tensor) -> torch.Tensor:
    d = uh.double() - u.double()
    return torch.sqrt((d * d * jxw.double()).sum(dim=1)).to(uh.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 12 * s["C"] * s["Q"] + 4 * s["C"], "flops": 4 * s["C"] * s["Q"]}
