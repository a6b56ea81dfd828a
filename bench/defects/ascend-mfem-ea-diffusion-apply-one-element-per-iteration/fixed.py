"""MFEM EA operator application: Y(j, e) = sum_i A(i, j, e) X(i, e) over the element matrices."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK_E = 64


@triton.jit
def _ea_mult(A, X, Y, NE, ND: tl.constexpr, BLOCK_E: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    j = tl.arange(0, ND)
    i = tl.arange(0, ND)
    for blk in range(pid, tl.cdiv(NE, BLOCK_E), nprog):
        e = blk * BLOCK_E + tl.arange(0, BLOCK_E)
        em = e < NE
        # A(i, j, e) at i + ND * (j + ND * e): a [BLOCK_E, j, i] tile, i contiguous
        a = tl.load(A + e[:, None, None] * (ND * ND) + j[None, :, None] * ND + i[None, None, :],
                    mask=em[:, None, None], other=0.0)
        x = tl.load(X + e[:, None] * ND + i[None, :], mask=em[:, None], other=0.0)
        y = tl.sum(a * x[:, None, :], axis=2)
        tl.store(Y + e[:, None] * ND + j[None, :], y, mask=em[:, None])


def run(ea: torch.Tensor, x_e: torch.Tensor) -> torch.Tensor:
    ne, nd = x_e.shape
    y_e = torch.empty((ne, nd), device=x_e.device, dtype=x_e.dtype)
    grid = (min(_VECTOR_CORES, triton.cdiv(ne, BLOCK_E)),)
    _ea_mult[grid](ea, x_e, y_e, ne, ND=nd, BLOCK_E=BLOCK_E)
    return y_e
