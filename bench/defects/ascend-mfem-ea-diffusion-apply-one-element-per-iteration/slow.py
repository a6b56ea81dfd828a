"""MFEM EA operator application: Y(j, e) = sum_i A(i, j, e) X(i, e) over the element matrices."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _ea_mult(A, X, Y, NE, ND: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, ND)
    i = tl.arange(0, ND)
    # MFEM's forall over (e, j) turned into a loop over elements: one element (all its ND rows) per step
    for e in range(pid, NE, nprog):
        # A(i, j, e) at i + ND * (j + ND * e): a [j, i] tile, i contiguous
        a = tl.load(A + e * (ND * ND) + j[:, None] * ND + i[None, :])
        x = tl.load(X + e * ND + i)
        y = tl.sum(a * x[None, :], axis=1)
        tl.store(Y + e * ND + j, y)


def run(ea: torch.Tensor, x_e: torch.Tensor) -> torch.Tensor:
    ne, nd = x_e.shape
    y_e = torch.empty((ne, nd), device=x_e.device, dtype=x_e.dtype)
    grid = (min(_VECTOR_CORES, ne),)
    _ea_mult[grid](ea, x_e, y_e, ne, ND=nd)
    return y_e
