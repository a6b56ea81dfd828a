"""Physics residual of 2-D Darcy flow for physics-informed neural operator training (PINO, FDM_Darcy).

The PDE is -div(a(x) grad u(x)) = f on the unit square, with the permeability a piecewise constant
(12 where a thresholded Gaussian random field is positive, 3 elsewhere: the FNO/PINO Darcy
dataset) and f = 1. PINO's finite-difference loss evaluates the operator on the network's output u
with nested central differences on the S x S grid (dx = 1 / (S - 1)):
    ux = (u[i+1, j] - u[i-1, j]) / (2 dx),   uy = (u[i, j+1] - u[i, j-1]) / (2 dx)
    Du = -((a ux)[i+1, j] - (a ux)[i-1, j] + (a uy)[i, j+1] - (a uy)[i, j-1]) / (2 dx)
which touches u two cells away and a one cell away, so the residual R = Du - f is defined on the
(S-4) x (S-4) inner grid (i, j = 2 .. S-3). Inputs u, a [B, S, S] fp32 and the scalar f; output
R [B, S-4, S-4] fp32 (the relative L2 of R against 0 is the physics loss).
"""
import math

import torch

META = {
    "name": "pino_darcy_residual",
    "level": 1,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 1e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"B": 2, "S": 20},
        "ragged": {"B": 3, "S": 27},
        "large": {"B": 32, "S": 421},
    },
    "baseline_notes": "40 programs loop over 2-D tiles of the inner grid (BH rows x BW columns, BW = "
                      "next_power_of_2(S - 4) up to 512, 2,048 elements per tile); per tile the tile's "
                      "(batch, row block, column block) is decoded once from the scalar tile index, u is "
                      "loaded at the centre and +-2 rows / columns, a at +-1 row / column (masked 2-D "
                      "tiles with unit inner stride), one masked store; no autotune.",
    "deterministic": True,
}


def _smooth_field(B: int, S: int, g: torch.Generator, n_modes: int = 8) -> torch.Tensor:
    """A smooth random field on the S x S grid: a sum of low-frequency random plane waves."""
    x = torch.linspace(0.0, 1.0, S)
    field = torch.zeros(B, S, S)
    for _ in range(n_modes):
        kx = torch.randint(1, 6, (B, 1, 1), generator=g).float()
        ky = torch.randint(1, 6, (B, 1, 1), generator=g).float()
        phase = torch.rand(B, 1, 1, generator=g) * 2 * math.pi
        amp = torch.randn(B, 1, 1, generator=g) / (kx * kx + ky * ky)
        field += amp * torch.cos(2 * math.pi * (kx * x[None, :, None] + ky * x[None, None, :]) + phase)
    return field


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """u [B, S, S] (a Darcy-like solution with zero boundary), a [B, S, S] in {3, 12}, f (float)."""
    s = META["sizes"][size]
    B, S = s["B"], s["S"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    a = torch.where(_smooth_field(B, S, g) >= 0, 12.0, 3.0)
    x = torch.linspace(0.0, 1.0, S)
    bubble = (x * (1 - x))[None, :, None] * (x * (1 - x))[None, None, :]
    u = bubble * (0.12 + 0.1 * _smooth_field(B, S, g)) / a.mean(dim=(1, 2), keepdim=True)
    return u.to(device=device, dtype=dt), a.to(device=device, dtype=dt), 1.0


def reference(u: torch.Tensor, a: torch.Tensor, f: float) -> torch.Tensor:
    ud, ad = u.double(), a.double()
    S = u.shape[-1]
    dx = 1.0 / (S - 1)
    ux = (ud[:, 2:, 1:-1] - ud[:, :-2, 1:-1]) / (2 * dx)
    uy = (ud[:, 1:-1, 2:] - ud[:, 1:-1, :-2]) / (2 * dx)
    ai = ad[:, 1:-1, 1:-1]
    aux, auy = ai * ux, ai * uy
    auxx = (aux[:, 2:, 1:-1] - aux[:, :-2, 1:-1]) / (2 * dx)
    auyy = (auy[:, 1:-1, 2:] - auy[:, 1:-1, :-2]) / (2 * dx)
    return (-(auxx + auyy) - f).to(u.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    B, S = s["B"], s["S"]
    n = B * (S - 4) * (S - 4)
    return {"bytes": 8 * B * S * S + 4 * n, "flops": 14 * n}
