"""Per-column tridiagonal solve of implicit vertical diffusion (E3SM vd_lu_decomp / vd_lu_solve)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _vd_lu_solve(ca, cc, q, ze, x, nlev, ncol, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = cols < ncol
    ze_k = tl.zeros([BLOCK], dtype=tl.float32)
    zf_k = tl.zeros([BLOCK], dtype=tl.float32)
    # downward elimination: ze, zf of each level from the level above
    for k in range(0, nlev):
        offs = k * ncol + cols
        a = tl.load(ca + offs, mask=live, other=0.0)
        c = tl.load(cc + offs, mask=live, other=0.0)
        d = tl.load(q + offs, mask=live, other=0.0)
        rden = 1.0 / (1.0 + a + c - c * ze_k)
        ze_k = a * rden
        zf_k = (d + c * zf_k) * rden
        tl.store(ze + offs, ze_k, mask=live)
        tl.store(x + offs, zf_k, mask=live)
    # upward back-substitution from the surface level
    x_k = zf_k
    for j in range(1, nlev):
        offs = (nlev - 1 - j) * ncol + cols
        x_k = tl.load(x + offs, mask=live, other=0.0) + tl.load(ze + offs, mask=live, other=0.0) * x_k
        tl.store(x + offs, x_k, mask=live)


def run(ca: torch.Tensor, cc: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    nlev, ncol = q.shape
    x = torch.empty_like(q)
    ze = torch.empty_like(q)
    BLOCK = 256
    _vd_lu_solve[(triton.cdiv(ncol, BLOCK),)](ca, cc, q, ze, x, nlev, ncol, BLOCK=BLOCK, num_warps=4)
    return x
