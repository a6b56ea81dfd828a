"""PFMG weighted-Jacobi sweep on a 7-point structured stencil (hypre StructMatrix layout, ghosted x)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _pfmg_jacobi_sweep(a, b, x, out, nx, ny, nz, omega, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    n = nx * ny * nz
    gy = nx + 2                       # ghosted strides of x
    gz = (ny + 2) * gy
    for blk in range(pid, tl.cdiv(n, BLOCK), nprog):
        p = blk * BLOCK + tl.arange(0, BLOCK)
        m = p < n
        i = p % nx
        j = (p // nx) % ny
        k = p // (nx * ny)
        c = (k + 1) * gz + (j + 1) * gy + (i + 1)
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
    BLOCK = 1024
    grid = (min(_VECTOR_CORES, triton.cdiv(nx * ny * nz, BLOCK)),)
    _pfmg_jacobi_sweep[grid](a, b, x, out, nx, ny, nz, omega, BLOCK=BLOCK)
    return out
