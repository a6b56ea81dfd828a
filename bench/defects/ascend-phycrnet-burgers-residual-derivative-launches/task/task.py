"""Finite-difference physics residual of the 2-D viscous Burgers' equations (PhyCRNet physics loss).

For a rollout uv [T, 2, H, W] (u, v on a uniform grid, x along W, y along H), at every interior
point and interior time step, with second-order central differences:
  r_u = u_t + u u_x + v u_y - nu (u_xx + u_yy),   r_v = v_t + u v_x + v v_y - nu (v_xx + v_yy).
Output: residual [T-2, 2, H-2, W-2] fp32.
"""
import math

import torch

META = {
    "name": "burgers2d_fd_residual",
    "level": 2,
    "category": "stencil",
    "dtypes": ["float32"],
    "tolerance": {"float32": {"atol": 2e-3, "rtol": 1e-4}},
    "sizes": {
        "small": {"T": 4, "H": 10, "W": 12},
        "ragged": {"T": 5, "H": 13, "W": 37},
        "large": {"T": 2002, "H": 128, "W": 128},
    },
    "baseline_notes": "One fused stencil launch: persistent grid of min(tiles, 40) programs over (time step, "
                      "8-row block) tiles of next_pow2(W-2) columns; each tile loads the centre, x/y/t "
                      "neighbours of u and v and writes both residual components.",
    "deterministic": True,
}


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """uv [T, 2, H, W]: smooth decaying Fourier modes plus small noise; dt, dx, nu as floats."""
    s = META["sizes"][size]
    T, H, W = s["T"], s["H"], s["W"]
    g = torch.Generator().manual_seed(seed)
    dt, dx, nu = 0.002, 1.0 / 128, 0.005
    y = torch.arange(H, dtype=torch.float64)[:, None] * dx
    x = torch.arange(W, dtype=torch.float64)[None, :] * dx
    t = torch.arange(T, dtype=torch.float64)[:, None, None] * dt
    fields = []
    for _ in range(2):
        k = torch.randint(1, 4, (4, 2), generator=g).double() * 2 * math.pi
        a = torch.randn(4, generator=g).double()
        f = sum(a[m] * torch.sin(k[m, 0] * x + k[m, 1] * y + m) * torch.exp(-nu * (k[m] ** 2).sum() * t)
                for m in range(4))
        fields.append(f + 0.01 * torch.randn(T, H, W, generator=g).double())
    uv = torch.stack(fields, dim=1).to(getattr(torch, dtype or META["dtypes"][0]))
    return uv.to(device), dt, dx, nu


def reference(uv: torch.Tensor, dt: float, dx: float, nu: float) -> torch.Tensor:
    f = uv.double()
    c = f[1:-1, :, 1:-1, 1:-1]
    d_t = (f[2:, :, 1:-1, 1:-1] - f[:-2, :, 1:-1, 1:-1]) / (2 * dt)
    d_x = (f[1:-1, :, 1:-1, 2:] - f[1:-1, :, 1:-1, :-2]) / (2 * dx)
    d_y = (f[1:-1, :, 2:, 1:-1] - f[1:-1, :, :-2, 1:-1]) / (2 * dx)
    lap = (f[1:-1, :, 2:, 1:-1] + f[1:-1, :, :-2, 1:-1] + f[1:-1, :, 1:-1, 2:] + f[1:-1, :, 1:-1, :-2] - 4 * c) / dx ** 2
    res = d_t + c[:, 0:1] * d_x + c[:, 1:2] * d_y - nu * lap
    return res.to(uv.dtype)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    n_in = s["T"] * 2 * s["H"] * s["W"]
    n_out = (s["T"] - 2) * 2 * (s["H"] - 2) * (s["W"] - 2)
    return {"bytes": 4 * (n_in + n_out), "flops": 22 * n_out}
