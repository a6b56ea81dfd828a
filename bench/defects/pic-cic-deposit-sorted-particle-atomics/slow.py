"""Cloud-in-cell charge deposition of cell-sorted particles onto a periodic 3-D grid."""
import torch
import triton
import triton.language as tl


@triton.jit
def _cell_of(x, y, z):
    fx = tl.floor(x)
    fy = tl.floor(y)
    fz = tl.floor(z)
    return fx.to(tl.int32), fy.to(tl.int32), fz.to(tl.int32), x - fx, y - fy, z - fz


@triton.jit
def _spread(rho_ptr, i, j, k, nx, ny, nz, w000, w001, w010, w011, w100, w101, w110, w111, mask):
    i1 = tl.where(i + 1 == nx, 0, i + 1)
    j1 = tl.where(j + 1 == ny, 0, j + 1)
    k1 = tl.where(k + 1 == nz, 0, k + 1)
    r00 = (k * ny + j) * nx
    r01 = (k * ny + j1) * nx
    r10 = (k1 * ny + j) * nx
    r11 = (k1 * ny + j1) * nx
    tl.atomic_add(rho_ptr + r00 + i, w000, mask=mask)
    tl.atomic_add(rho_ptr + r00 + i1, w001, mask=mask)
    tl.atomic_add(rho_ptr + r01 + i, w010, mask=mask)
    tl.atomic_add(rho_ptr + r01 + i1, w011, mask=mask)
    tl.atomic_add(rho_ptr + r10 + i, w100, mask=mask)
    tl.atomic_add(rho_ptr + r10 + i1, w101, mask=mask)
    tl.atomic_add(rho_ptr + r11 + i, w110, mask=mask)
    tl.atomic_add(rho_ptr + r11 + i1, w111, mask=mask)


@triton.jit
def cic_deposit_kernel(pos_ptr, q_ptr, rho_ptr, n_particles, nx, ny, nz, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = offs < n_particles
    x = tl.load(pos_ptr + offs, mask=live, other=0.0)
    y = tl.load(pos_ptr + n_particles + offs, mask=live, other=0.0)
    z = tl.load(pos_ptr + 2 * n_particles + offs, mask=live, other=0.0)
    q = tl.load(q_ptr + offs, mask=live, other=0.0)
    i, j, k, dx, dy, dz = _cell_of(x, y, z)

    qz0 = q * (1.0 - dz)
    qz1 = q * dz
    w00 = (1.0 - dy) * (1.0 - dx)
    w01 = (1.0 - dy) * dx
    w10 = dy * (1.0 - dx)
    w11 = dy * dx
    w000, w001, w010, w011 = qz0 * w00, qz0 * w01, qz0 * w10, qz0 * w11
    w100, w101, w110, w111 = qz1 * w00, qz1 * w01, qz1 * w10, qz1 * w11

    _spread(rho_ptr, i, j, k, nx, ny, nz, w000, w001, w010, w011, w100, w101, w110, w111, live)


def run(pos: torch.Tensor, q: torch.Tensor, nx: int, ny: int, nz: int) -> torch.Tensor:
    n = q.numel()
    rho = torch.zeros((nz, ny, nx), device=q.device, dtype=torch.float32)
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    cic_deposit_kernel[grid](pos, q, rho, n, nx, ny, nz, BLOCK=BLOCK, num_warps=4)
    return rho
