"""logcumsumexp along the last dim: one program per (row, 1024-column block), each block independent."""
import torch
import triton
import triton.language as tl


@triton.jit
def _block_lse_scan(x, m_prev, s_prev):
    """Inclusive logcumsumexp of one block given the (max, sum of exp) of everything before it."""
    bm = tl.max(x, axis=0)
    cs = tl.cumsum(tl.exp(x - bm), axis=0)
    top = tl.maximum(m_prev, bm)
    return tl.log(s_prev * tl.exp(m_prev - top) + cs * tl.exp(bm - top)) + top


@triton.jit
def logcumsumexp_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    blk = tl.program_id(1)
    x_row = x_ptr + row * N
    # the prefix this block needs: (max, sum of exp) over all earlier blocks of the row
    m = -float("inf")
    s = 0.0
    for j in range(0, blk):
        cols = j * BLOCK + tl.arange(0, BLOCK)
        xp = tl.load(x_row + cols)
        new_m = tl.maximum(m, tl.max(xp, axis=0))
        s = s * tl.exp(m - new_m) + tl.sum(tl.exp(xp - new_m), axis=0)
        m = new_m
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_row + cols, mask=mask, other=-float("inf"))
    tl.store(out_ptr + row * N + cols, _block_lse_scan(x, m, s), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    BLOCK = 1024
    logcumsumexp_kernel[(M, triton.cdiv(N, BLOCK))](x, out, N, BLOCK=BLOCK, num_warps=4)
    return out
