"""PFMG weighted-Jacobi sweep on a 7-point structured stencil (hypre StructMatrix layout, ghosted x)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _pfmg_jacobi_sweep(a, b, x, out, nx, ny, nz, omega, BJ: tl.constexpr, BX: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n = nx * ny * nz
    gy = nx + 2                       # ghosted strides of x
    gz = (ny + 2) * gy
    njb = tl.cdiv(ny, BJ)
    ii = tl.arange(0, BX)
    for t in range(pid, nz * njb, nprog):
        k = t // njb
        j = (t % njb) * BJ + tl.arange(0, BJ)
        m = (j < ny)[:, None] & (ii < nx)[None, :]
        p = k * (ny * nx) + j[:, None] * nx + ii[None, :]
        c = (k + 1) * gz + (j[:, None] + 1) * gy + (ii[None, :] + 1)
        xc = tl.load(x + c, mask=m, other=0.0)
        r = tl.load(b + p, mask=m, other=0.0)
        r -= tl.load(a + 1 * n + p, mask=m, other=0.0) * tl.load(x + c - 1, mask=m, other=0.0)
        r -= tl.load(a + 2 * n + p, mask=m, other=0.0) * tl.load(x + c + 1, mask=m, other=0.0)
        r -= tl.load(a + 3 * n + p, mask=m, other=0.0) * tl.load(x + c - gy, mask=m, other=0.0)
        r -= tl.load(a + 4 * n + p, mask=m, other=0.0) * tl.load(x + c + gy, mask=m, other=0.0)
        r -= tl.load(a + 5 * n + p, mask=m, other=0.0) * tl.load(x + c - gz, mask=m, other=0.0)
        r -= tl.load(a + 6 * n + p, mask=m, other=0.0) * tl.load(x + c + gz, mask=m, other=0.0)
        diag = tl.load(a + p, mask=m, other=1.0)
        tl.store(out + p, (1.0 - omega) * xc + omega * r / diag, mask=m)


def run(a: torch.Tensor, b: torch.Tensor, x: torch.Tensor, omega: float) -> torch.Tensor:
    _, nz, ny, nx = a.shape
    out = torch.empty((nz, ny, nx), device=b.device, dtype=b.dtype)
    BX = triton.next_power_of_2(nx)
    BJ = max(1, 1024 // BX)
    grid = (min(_VECTOR_CORES, nz * triton.cdiv(ny, BJ)),)
    _pfmg_jacobi_sweep[grid](a, b, x, out, nx, ny, nz, omega, BJ=BJ, BX=BX)
    return out
