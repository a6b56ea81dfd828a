"""Per-column tridiagonal solve of implicit vertical diffusion (E3SM vd_lu_decomp / vd_lu_solve)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _vd_lu_solve(ca, cc, q, ze, x, nlev, ncol):
    col = tl.program_id(0)
    ze_k = 0.0
    zf_k = 0.0
    # downward elimination: ze, zf of each level from the level above
    for k in range(0, nlev):
        off = k * ncol + col
        a = tl.load(ca + off)
        c = tl.load(cc + off)
        d = tl.load(q + off)
        rden = 1.0 / (1.0 + a + c - c * ze_k)
        ze_k = a * rden
        zf_k = (d + c * zf_k) * rden
        tl.store(ze + off, ze_k)
        tl.store(x + off, zf_k)
    # upward back-substitution from the surface level
    x_k = zf_k
    for j in range(1, nlev):
        off = (nlev - 1 - j) * ncol + col
        x_k = tl.load(x + off) + tl.load(ze + off) * x_k
        tl.store(x + off, x_k)


def run(ca: torch.Tensor, cc: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    nlev, ncol = q.shape
    x = torch.empty_like(q)
    ze = torch.empty_like(q)
    _vd_lu_solve[(ncol,)](ca, cc, q, ze, x, nlev, ncol, num_warps=4)
    return x
