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
        # upwind, downwind and upwind-upwind cell of each link, from the sign of its discharge
        fl = f[None, :]
        up = tl.where(pos, fl - 1, fl)
        dn = tl.where(pos, fl, fl - 1)
        upup = tl.where(pos, fl - 2, fl + 1)
        rm = rmask[:, None]
        cu = tl.load(crow + up, mask=rm & (up >= 0) & (up < nx), other=0.0)
        cd = tl.load(crow + dn, mask=rm & (dn >= 0) & (dn < nx), other=0.0)
        cuu = tl.load(crow + upup, mask=rm & (upup >= 0) & (upup < nx), other=0.0)
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
