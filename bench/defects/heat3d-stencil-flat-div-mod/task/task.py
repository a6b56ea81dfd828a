"""One explicit (forward Euler) step of the 3-D heat equation: 7-point Laplacian, Dirichlet boundary kept."""
import torch

META = {
    "name": "heat3d_step",
    "level": 1,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"Z": 6, "Y": 7, "X": 16},
        "ragged": {"Z": 5, "Y": 9, "X": 23},
        "large": {"Z": 512, "Y": 512, "X": 512},
    },
    "baseline_notes": "Grid (x blocks, Y, Z): each program takes one 512-wide run of an x-row, its y and z come from "
                      "the program ids; boundary rows are copied, interior rows load the 6 neighbours with the row mask "
                      "only and select the boundary columns; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """u [Z, Y, X] temperature field and the explicit-step coefficient alpha = k dt / dx^2 (stable, < 1/6)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(s["Z"], s["Y"], s["X"], generator=g) * 100.0
    return u.to(dt).to(device), 0.15


def reference(u: torch.Tensor, alpha: float) -> torch.Tensor:
    v = u.double()
    out = v.clone()
    c = v[1:-1, 1:-1, 1:-1]
    lap = (v[1:-1, 1:-1, :-2] + v[1:-1, 1:-1, 2:]) + (v[1:-1, :-2, 1:-1] + v[1:-1, 2:, 1:-1]) \
        + (v[:-2, 1:-1, 1:-1] + v[2:, 1:-1, 1:-1]) - 6.0 * c
    out[1:-1, 1:-1, 1:-1] = c + alpha * lap
    return out.to(u.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["Z"] * s["Y"] * s["X"]
    return {"bytes": 8 * n, "flops": 9 * n}
