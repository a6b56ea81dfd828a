"""One position-Verlet step of a Provot mass-spring cloth on a regular H x W vertex grid.

Every vertex (i, j) is tied by springs to (i+-1, j), (i, j+-1) (structural, rest a), the four
diagonals (shear, rest a*sqrt(2)) and (i+-2, j), (i, j+-2) (flexion, rest 2a), a = 1 / (W - 1).
The spring displacement is k * (|d| - rest) * d / |d| with d = x_nb - x (k already scaled by
dt^2 / m). Verlet: x_new = x + DAMP * (x - x_prev) + sum of spring displacements + gravity
(GDT2 on y). Row 0 is pinned (x_new = x).
"""
import math

import torch

K_STRUCT = 0.2
K_SHEAR = 0.1
K_BEND = 0.05
DAMP = 0.99
GDT2 = -9.81 / 600.0 ** 2

META = {
    "name": "cloth_verlet_mass_spring_step",
    "level": 2,
    "category": "simulation",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-5}},
    "sizes": {
        "small": {"H": 20, "W": 24},
        "ragged": {"H": 37, "W": 53},
        "large": {"H": 1024, "W": 1024},
    },
    "baseline_notes": "[8, 64] vertex tile per program, 12 neighbour springs unrolled, masked at the borders, "
                      "fp32 math, one store of x_new; 4 warps, no autotune.",
    "deterministic": True,
}

SPRINGS = [(di, dj, K_STRUCT, 1.0) for di, dj in ((-1, 0), (1, 0), (0, -1), (0, 1))] + \
          [(di, dj, K_SHEAR, math.sqrt(2.0)) for di, dj in ((-1, -1), (-1, 1), (1, -1), (1, 1))] + \
          [(di, dj, K_BEND, 2.0) for di, dj in ((-2, 0), (2, 0), (0, -2), (0, 2))]


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """x [H, W, 3] and x_prev [H, W, 3]: a jittered sheet in the x-z plane with small velocities."""
    s = META["sizes"][size]
    H, W = s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = 1.0 / (W - 1)
    ii, jj = torch.meshgrid(torch.arange(H), torch.arange(W), indexing="ij")
    x = torch.stack([jj * a, torch.zeros(H, W), ii * a], -1).double()
    x = x + (torch.rand(H, W, 3, generator=g, dtype=torch.float64) - 0.5) * 0.2 * a
    x_prev = x + torch.randn(H, W, 3, generator=g, dtype=torch.float64) * 0.01 * a
    return x.to(dt).to(device), x_prev.to(dt).to(device)


def reference(x: torch.Tensor, x_prev: torch.Tensor) -> torch.Tensor:
    H, W, _ = x.shape
    a = 1.0 / (W - 1)
    p = x.double()
    disp = torch.zeros_like(p)
    ii = torch.arange(H, device=x.device)[:, None]
    jj = torch.arange(W, device=x.device)[None, :]
    for di, dj, k, rest in SPRINGS:
        ni, nj = ii + di, jj + dj
        ok = (ni >= 0) & (ni < H) & (nj >= 0) & (nj < W)
        nb = p[ni.clamp(0, H - 1).expand(H, W), nj.clamp(0, W - 1).expand(H, W)]
        d = nb - p
        length = d.norm(dim=-1, keepdim=True)
        disp += torch.where(ok[..., None], k * (length - rest * a) / length * d, torch.zeros_like(d))
    out = p + DAMP * (p - x_prev.double()) + disp
    out[..., 1] += GDT2
    out[0] = p[0]
    return out.to(x.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n = s["H"] * s["W"]
    return {"bytes": 36 * n, "flops": 12 * 20 * n}
