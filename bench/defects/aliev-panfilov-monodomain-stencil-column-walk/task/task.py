"""One explicit time step of the 2-D Aliev-Panfilov monodomain model on a Cartesian grid.

The classic cardiac simulator (Aliev & Panfilov 1996 kinetics, as in the Cartesian-grid "cardiac
simulator" benchmark and openCARP's AlievPanfilov IMP): excitation e and recovery r on an M x N grid,
row-major. One step is the 5-point diffusion update with no-flux (mirrored ghost) boundaries followed by
the forward-Euler reaction update, which uses the freshly diffused e:

    e* = e + alpha (e[i-1,j] + e[i+1,j] + e[i,j-1] + e[i,j+1] - 4 e[i,j])     (ghost e[-1] = e[1])
    e' = e* - dt (k e* (e* - a)(e* - 1) + e* r)
    r' = r + dt (eps + mu1 r / (e' + mu2)) (-r - k e' (e' - b - 1))

with alpha = D dt / dx^2. Returns (e', r'), fp32 [M, N].
"""
import torch

META = {
    "name": "aliev_panfilov_step_2d",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"M": 24, "N": 40},
        "ragged": {"M": 37, "N": 53},
        "large": {"M": 4096, "N": 4096},
    },
    "baseline_notes": "Grid (cdiv(N, 512), M): each program takes 512 consecutive cells of one row, loads the "
                      "centre and its four neighbours (mirrored at the edges), and does diffusion and reaction "
                      "in one pass; 4 warps.",
    "deterministic": True,
}

# Aliev-Panfilov parameters (dimensionless)
A, B, K, EPS, MU1, MU2 = 0.1, 0.1, 8.0, 0.01, 0.07, 0.3
DT = 0.02
ALPHA = 1.0 * DT / 0.35 ** 2  # D = 1, dx = 0.35


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """e [M, N], r [M, N] (a rotating spiral-wave snapshot with a little noise), dt and alpha."""
    s = META["sizes"][size]
    m, n = s["M"], s["N"]
    g = torch.Generator().manual_seed(seed)
    dt_ = getattr(torch, dtype or META["dtypes"][0])
    y = torch.linspace(-1.0, 1.0, m)[:, None]
    x = torch.linspace(-1.0, 1.0, n)[None, :]
    phase = torch.atan2(y, x) + 12.0 * torch.sqrt(x * x + y * y) + 6.28 * torch.rand(1, generator=g)
    e = 0.5 * (1.0 + torch.tanh(4.0 * torch.sin(phase))) + 0.01 * torch.randn(m, n, generator=g)
    r = 0.8 * 0.5 * (1.0 + torch.tanh(4.0 * torch.sin(phase - 1.0))) + 0.01 * torch.rand(m, n, generator=g)
    return e.to(dt_).contiguous().to(device), r.to(dt_).contiguous().to(device), DT, ALPHA


def reference(e: torch.Tensor, r: torch.Tensor, dt: float, alpha: float) -> tuple:
    E, R = e.double(), r.double()
    padded = torch.nn.functional.pad(E[None, None], (1, 1, 1, 1), mode="reflect")[0, 0]
    lap = padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:] - 4.0 * E
    E1 = E + alpha * lap
    E1 = E1 - dt * (K * E1 * (E1 - A) * (E1 - 1.0) + E1 * R)
    R1 = R + dt * (EPS + MU1 * R / (E1 + MU2)) * (-R - K * E1 * (E1 - B - 1.0))
    return E1.to(e.dtype), R1.to(r.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 16 * s["M"] * s["N"], "flops": 30 * s["M"] * s["N"]}
