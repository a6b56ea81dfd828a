"""SIRT volume update x <- max(x + lam * C * bp, 0) with z-invariant pixel weights C [Ny, Nx]."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _sirt_update(x, bp, cw, lam, out, nz, plane, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    relax = tl.load(lam)
    n_pb = tl.cdiv(plane, BLOCK)
    for t in range(pid, nz * n_pb, nprog):
        z = t // n_pb
        pb = t - z * n_pb
        p = pb * BLOCK + tl.arange(0, BLOCK)
        mask = p < plane
        offs = z * plane + p
        xv = tl.load(x + offs, mask=mask, other=0.0)
        b = tl.load(bp + offs, mask=mask, other=0.0)
        c = tl.load(cw + p, mask=mask, other=0.0)   # the weight plane repeats every slice
        tl.store(out + offs, tl.maximum(xv + relax * c * b, 0.0), mask=mask)


def run(x: torch.Tensor, bp: torch.Tensor, C: torch.Tensor, lam: torch.Tensor) -> torch.Tensor:
    Z, Y, X = x.shape
    out = torch.empty_like(x)
    BLOCK = 4096
    grid = (min(_VECTOR_CORES, Z * triton.cdiv(Y * X, BLOCK)),)
    _sirt_update[grid](x, bp, C, lam, out, Z, Y * X, BLOCK=BLOCK)
    return out
