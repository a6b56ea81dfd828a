"""ParFlow column subsurface storage: sum over layers of dx*dy*dz*(porosity*sat + pressure*sat*Ss), masked."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _column_storage(pressure, sat, porosity, sstor, mask, dz_layers, out, nz, ncol, area,
                    BC: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for blk in range(pid, tl.cdiv(ncol, BC), nprog):
        cols = blk * BC + tl.arange(0, BC)
        cm = cols < ncol
        acc = tl.zeros([BC], dtype=tl.float32)
        # walk the layers: every load is a contiguous run of columns of one layer
        for k in range(nz):
            dz = tl.load(dz_layers + k)
            offs = k * ncol + cols
            p = tl.load(pressure + offs, mask=cm, other=0.0)
            s = tl.load(sat + offs, mask=cm, other=0.0)
            phi = tl.load(porosity + offs, mask=cm, other=0.0)
            ss = tl.load(sstor + offs, mask=cm, other=0.0)
            mk = tl.load(mask + offs, mask=cm, other=0.0)
            cell = dz * (phi * s + p * s * ss)
            acc += tl.where(mk != 0.0, cell, 0.0)
        tl.store(out + cols, acc * area, mask=cm)


def run(pressure, sat, porosity, specific_storage, mask, dz_layers, dx, dy):
    nz, ny, nx = pressure.shape
    ncol = ny * nx
    out = torch.empty((ny, nx), device=pressure.device, dtype=torch.float32)
    BC = 2048
    grid = (min(_VECTOR_CORES, triton.cdiv(ncol, BC)),)
    _column_storage[grid](pressure, sat, porosity, specific_storage, mask, dz_layers, out, nz, ncol,
                          dx * dy, BC=BC)
    return out
