"""One Jacobi sweep of the 2-D Poisson problem -laplace(u) = f on a uniform grid (the smoother of a
geometric-multigrid / Jacobi PDE solver): interior points get
u_new[i, j] = 0.25 * (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] + h2 * f[i, j]); the Dirichlet
boundary rows and columns are copied unchanged. fp32 [H, W], row-major."""
import torch

META = {
    "name": "jacobi_poisson_sweep",
    "level": 1,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 40, "W": 70},
        "ragged": {"H": 33, "W": 1031},
        "large": {"H": 8192, "W": 8192},
    },
    "baseline_notes": "2-D grid (row, block of 1024 columns): each program loads its row segment and the rows "
                      "above and below with contiguous, coalesced loads and writes one row segment; 4 warps.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """u [H, W] (current iterate, boundary = Dirichlet values), f [H, W] (right-hand side), h2 = grid step^2."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    u = torch.rand(s["H"], s["W"], generator=g)
    f = torch.randn(s["H"], s["W"], generator=g)
    h2 = 1.0 / float(max(s["H"], s["W"]) - 1) ** 2
    return u.to(dt).to(device), f.to(dt).to(device), h2


def reference(u: torch.Tensor, f: torch.Tensor, h2: float) -> torch.Tensor:
    u64, f64 = u.double(), f.double()
    out = u64.clone()
    out[1:-1, 1:-1] = 0.25 * (u64[:-2, 1:-1] + u64[2:, 1:-1] + u64[1:-1, :-2] + u64[1:-1, 2:]
                              + h2 * f64[1:-1, 1:-1])
    return out.to(u.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 12 * n, "flops": 6 * n}
