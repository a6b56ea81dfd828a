"""ParFlow column subsurface storage: sum over layers of dx*dy*dz*(porosity*sat + pressure*sat*Ss), masked."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _column_storage(pressure, sat, porosity, sstor, mask, dz_layers, out, nz, ncol, area,
                    BC: tl.constexpr, BZ: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    lay = tl.arange(0, BZ)
    lm = lay < nz
    dz = tl.load(dz_layers + lay, mask=lm, other=0.0)
    for blk in range(pid, tl.cdiv(ncol, BC), nprog):
        cols = blk * BC + tl.arange(0, BC)
        cm = cols < ncol
        # [columns, layers] tile: each column's layers side by side, summed along axis 1
        offs = cols[:, None] + lay[None, :] * ncol
        m = cm[:, None] & lm[None, :]
        p = tl.load(pressure + offs, mask=m, other=0.0)
        s = tl.load(sat + offs, mask=m, other=0.0)
        phi = tl.load(porosity + offs, mask=m, other=0.0)
        ss = tl.load(sstor + offs, mask=m, other=0.0)
        mk = tl.load(mask + offs, mask=m, other=0.0)
        cell = dz[None, :] * (phi * s + p * s * ss)
        cell = tl.where(mk != 0.0, cell, 0.0)
        tl.store(out + cols, tl.sum(cell, axis=1) * area, mask=cm)


def run(pressure, sat, porosity, specific_storage, mask, dz_layers, dx, dy):
    nz, ny, nx = pressure.shape
    ncol = ny * nx
    out = torch.empty((ny, nx), device=pressure.device, dtype=torch.float32)
    BZ = triton.next_power_of_2(nz)
    BC = max(16, 2048 // BZ)
    grid = (min(_VECTOR_CORES, triton.cdiv(ncol, BC)),)
    _column_storage[grid](pressure, sat, porosity, specific_storage, mask, dz_layers, out, nz, ncol,
                          dx * dy, BC=BC, BZ=BZ)
    return out
