"""Multi-order-parameter grain growth (MOOSE phase_field ACGrGrPoly + ACInterface + TimeDerivative), one explicit step.

Fan-Chen / Moelans free energy of N non-conserved order parameters eta_i (MOOSE's PolycrystalKernel
action, one variable per order parameter, grains remapped onto them by the GrainTracker):
    dF/deta_i = mu * (eta_i^3 - eta_i + 2 * gamma * eta_i * sum_{j != i} eta_j^2)      (ACGrGrPoly)
and the Allen-Cahn update with the gradient term (ACInterface) on a uniform grid, finite differences
with zero-flux boundaries (a missing neighbour equals the cell):
    eta_i_new = eta_i - dt * L * (dF/deta_i - kappa * lap(eta_i)),  lap = (e + w + n + s - 4 c) / dx^2.
eta is [N, ny, nx] fp32 (one plane per order parameter); the output has the same layout.
"""
import torch

META = {
    "name": "grain_growth_allen_cahn_step",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"N": 4, "nx": 40, "ny": 12},
        "ragged": {"N": 3, "nx": 37, "ny": 9},
        "large": {"N": 16, "nx": 2048, "ny": 2048},
    },
    "baseline_notes": "Persistent grid of min(40, blocks) programs looping over row chunks of 1024 cells; per "
                      "chunk the sum of squares over all order parameters is accumulated once, then every "
                      "order parameter is updated from its 5-point stencil (contiguous row loads shifted by "
                      "one, no-flux edges patched with an i32 == select, clamped neighbour rows) and "
                      "sum_{j != i} eta_j^2 = S - eta_i^2; no autotune.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """eta [N, ny, nx] (blocky polycrystal: each grain on one order parameter, diffuse noise elsewhere),
    dt, mobility L, gradient coefficient kappa, mu, gamma, dx."""
    s = META["sizes"][size]
    n_ops, nx, ny = s["N"], s["nx"], s["ny"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    cell = max(4, min(nx, ny) // 8)
    labels = torch.randint(0, n_ops, ((ny + cell - 1) // cell, (nx + cell - 1) // cell), generator=g)
    labels = labels.repeat_interleave(cell, 0).repeat_interleave(cell, 1)[:ny, :nx]
    eta = torch.nn.functional.one_hot(labels, n_ops).permute(2, 0, 1).to(torch.float32)
    eta = 0.9 * eta + 0.1 * torch.rand(n_ops, ny, nx, generator=g, dtype=torch.float32)
    return eta.to(dt).to(device), 0.05, 1.0, 2.0, 1.0, 1.5, 1.0


def reference(eta: torch.Tensor, dt: float, mobility: float, kappa: float, mu: float, gamma: float,
              dx: float) -> torch.Tensor:
    e = eta.double()
    pad = torch.nn.functional.pad(e[None], (1, 1, 1, 1), mode="replicate")[0]
    lap = (pad[:, 1:-1, 2:] + pad[:, 1:-1, :-2] + pad[:, 2:, 1:-1] + pad[:, :-2, 1:-1] - 4.0 * e) / (dx * dx)
    others = (e * e).sum(0, keepdim=True) - e * e
    dfdeta = mu * (e ** 3 - e + 2.0 * gamma * e * others)
    return (e - dt * mobility * (dfdeta - kappa * lap)).to(eta.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["N"] * s["nx"] * s["ny"]
    return {"bytes": 8 * n, "flops": 20 * n}
