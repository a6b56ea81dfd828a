"""Implicit vertical diffusion of a tracer: ROMS step3d_t tridiagonal solve (Thomas algorithm) per water column."""
import torch
import triton
import triton.language as tl


@triton.jit
def _vertical_diffusion(t, Hz, Akt, CF, x, n_xy, nz, dt):
    col = tl.program_id(0)
    # bottom level: no flux through the sea floor
    hz_k = tl.load(Hz + col)
    hz_up = tl.load(Hz + n_xy + col)
    fc = -dt * tl.load(Akt + col) / (0.5 * (hz_k + hz_up))
    inv = 1.0 / (hz_k - fc)
    cf = inv * fc
    dc = inv * (hz_k * tl.load(t + col))
    tl.store(CF + col, cf)
    tl.store(x + col, dc)
    fc_dn = fc
    hz_k = hz_up
    # forward sweep up the interior levels
    for k in range(1, nz - 1):
        hz_up = tl.load(Hz + (k + 1) * n_xy + col)
        fc = -dt * tl.load(Akt + k * n_xy + col) / (0.5 * (hz_k + hz_up))
        inv = 1.0 / (hz_k - fc - fc_dn - fc_dn * cf)
        dc = inv * (hz_k * tl.load(t + k * n_xy + col) - fc_dn * dc)
        cf = inv * fc
        tl.store(CF + k * n_xy + col, cf)
        tl.store(x + k * n_xy + col, dc)
        fc_dn = fc
        hz_k = hz_up
    # top level: no flux through the surface
    top = nz - 1
    xk = (hz_k * tl.load(t + top * n_xy + col) - fc_dn * dc) / (hz_k - fc_dn - fc_dn * cf)
    tl.store(x + top * n_xy + col, xk)
    # back substitution
    for j in range(0, nz - 1):
        k = nz - 2 - j
        xk = tl.load(x + k * n_xy + col) - tl.load(CF + k * n_xy + col) * xk
        tl.store(x + k * n_xy + col, xk)


def run(t: torch.Tensor, Hz: torch.Tensor, Akt: torch.Tensor, dt: float) -> torch.Tensor:
    nz, ny, nx = t.shape
    n_xy = ny * nx
    x = torch.empty_like(t)
    cf = torch.empty_like(t)
    grid = (n_xy,)
    _vertical_diffusion[grid](t, Hz, Akt, cf, x, n_xy, nz, dt, num_warps=4)
    return x
