"""D-Flow FM TVD transport: MC-limited face value and advective flux on the x-links of a Cartesian patch."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BR = 4
_BF = 256


@triton.jit
def _tvd_link_flux(c, q, flux, ny, nx, BR: tl.constexpr, BF: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    nlink = nx + 1
    n_fb = tl.cdiv(nlink, BF)
    n_tiles = tl.cdiv(ny, BR) * n_fb
    for t in range(pid, n_tiles, nprog):
        rows = (t // n_fb) * BR + tl.arange(0, BR)
        f = (t % n_fb) * BF + tl.arange(0, BF)
        rmask = rows < ny
        m = rmask[:, None] & (f < nlink)[None, :]
        qv = tl.load(q + rows[:, None] * nlink + f[None, :], mask=m, other=0.0)
        crow = c + rows[:, None] * nx
        pos = qv > 0.0
        # the row's cells around link f: f-2, f-1 (left of the link), f (right), f+1
        cm2 = tl.load(crow + (f - 2)[None, :], mask=rmask[:, None] & (f >= 2)[None, :], other=0.0)
        cm1 = tl.load(crow + (f - 1)[None, :], mask=rmask[:, None] & (f >= 1)[None, :] & (f <= nx)[None, :],
                      other=0.0)
        c0 = tl.load(crow + f[None, :], mask=rmask[:, None] & (f < nx)[None, :], other=0.0)
        cp1 = tl.load(crow + (f + 1)[None, :], mask=rmask[:, None] & (f + 1 < nx)[None, :], other=0.0)
        cu = tl.where(pos, cm1, c0)
        cd = tl.where(pos, c0, cm1)
        cuu = tl.where(pos, cm2, cp1)
        ff = f.to(tl.float32)[None, :]
        has_uu = tl.where(pos, ff >= 2.0, ff + 1.0 < nx)
        d1 = tl.where(has_uu, cu - cuu, 0.0)
        d2 = cd - cu
        same = d1 * d2 > 0.0
        r = d1 / tl.where(same, d2, 1.0)
        phi = tl.maximum(tl.minimum(tl.minimum(2.0 * r, 0.5 * (1.0 + r)), 2.0), 0.0)
        phi = tl.where(same, phi, 0.0)
        tl.store(flux + rows[:, None] * nlink + f[None, :], qv * (cu + 0.5 * phi * d2), mask=m)


def run(c: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    ny, nx = c.shape
    flux = torch.empty((ny, nx + 1), device=c.device, dtype=q.dtype)
    n_tiles = triton.cdiv(ny, _BR) * triton.cdiv(nx + 1, _BF)
    grid = (min(_VECTOR_CORES, n_tiles),)
    _tvd_link_flux[grid](c, q, flux, ny, nx, BR=_BR, BF=_BF)
    return flux
