"""Implicit vertical diffusion of a tracer: ROMS step3d_t tridiagonal solve (Thomas algorithm) per water column."""
import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def _vertical_diffusion(t, Hz, Akt, CF, x, n_xy, nz, dt, BLOCK: tl.constexpr):
    col = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = col < n_xy
    # bottom level: no flux through the sea floor
    hz_k = tl.load(Hz + col, mask=ok, other=1.0)
    hz_up = tl.load(Hz + n_xy + col, mask=ok, other=1.0)
    fc = -dt * tl.load(Akt + col, mask=ok, other=0.0) / (0.5 * (hz_k + hz_up))
    inv = 1.0 / (hz_k - fc)
    cf = inv * fc
    dc = inv * (hz_k * tl.load(t + col, mask=ok, other=0.0))
    tl.store(CF + col, cf, mask=ok)
    tl.store(x + col, dc, mask=ok)
    fc_dn = fc
    hz_k = hz_up
    # forward sweep up the interior levels
    for k in range(1, nz - 1):
        hz_up = tl.load(Hz + (k + 1) * n_xy + col, mask=ok, other=1.0)
        fc = -dt * tl.load(Akt + k * n_xy + col, mask=ok, other=0.0) / (0.5 * (hz_k + hz_up))
        inv = 1.0 / (hz_k - fc - fc_dn - fc_dn * cf)
        dc = inv * (hz_k * tl.load(t + k * n_xy + col, mask=ok, other=0.0) - fc_dn * dc)
        cf = inv * fc
        tl.store(CF + k * n_xy + col, cf, mask=ok)
        tl.store(x + k * n_xy + col, dc, mask=ok)
        fc_dn = fc
        hz_k = hz_up
    # top level: no flux through the surface
    top = nz - 1
    xk = (hz_k * tl.load(t + top * n_xy + col, mask=ok, other=0.0) - fc_dn * dc) / (hz_k - fc_dn - fc_dn * cf)
    tl.store(x + top * n_xy + col, xk, mask=ok)
    # back substitution
    for j in range(0, nz - 1):
        k = nz - 2 - j
        xk = tl.load(x + k * n_xy + col, mask=ok, other=0.0) - tl.load(CF + k * n_xy + col, mask=ok, other=0.0) * xk
        tl.store(x + k * n_xy + col, xk, mask=ok)


def run(t: torch.Tensor, Hz: torch.Tensor, Akt: torch.Tensor, dt: float) -> torch.Tensor:
    nz, ny, nx = t.shape
    n_xy = ny * nx
    x = torch.empty_like(t)
    cf = torch.empty_like(t)
    grid = (triton.cdiv(n_xy, BLOCK),)
    _vertical_diffusion[grid](t, Hz, Akt, cf, x, n_xy, nz, dt, BLOCK=BLOCK, num_warps=4)
    return x
