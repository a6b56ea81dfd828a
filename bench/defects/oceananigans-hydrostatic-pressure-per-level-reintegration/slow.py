"""Hydrostatic pressure anomaly (Oceananigans update_hydrostatic_pressure!, linear equation of state)."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
G = 9.80665


@triton.jit
def _hydrostatic_pressure(T, S, zc, p, n_xy, nz, alpha, beta,
                          G: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    level = tl.program_id(1)
    ok = cols < n_xy
    top = nz - 1
    # surface to the top cell centre: buoyancy held constant
    t_up = tl.load(T + top * n_xy + cols, mask=ok, other=0.0)
    s_up = tl.load(S + top * n_xy + cols, mask=ok, other=0.0)
    b_up = G * (alpha * t_up - beta * s_up)
    z_up = tl.load(zc + top)
    acc = -b_up * (0.0 - z_up)
    # integrate down from the surface to this program's level
    for j in range(0, top - level):
        k = top - 1 - j
        t_k = tl.load(T + k * n_xy + cols, mask=ok, other=0.0)
        s_k = tl.load(S + k * n_xy + cols, mask=ok, other=0.0)
        b_k = G * (alpha * t_k - beta * s_k)
        z_k = tl.load(zc + k)
        acc -= 0.5 * (b_k + b_up) * (z_up - z_k)
        b_up = b_k
        z_up = z_k
    tl.store(p + level * n_xy + cols, acc, mask=ok)


def run(T: torch.Tensor, S: torch.Tensor, zc: torch.Tensor, alpha: float, beta: float) -> torch.Tensor:
    nz, ny, nx = T.shape
    n_xy = ny * nx
    p = torch.empty_like(T)
    grid = (triton.cdiv(n_xy, BLOCK), nz)
    _hydrostatic_pressure[grid](T, S, zc, p, n_xy, nz, alpha, beta,
                                G=G, BLOCK=BLOCK, num_warps=4)
    return p
