"""logcumsumexp along the last dim: one program per row, carrying the running (max, sum of exp) across blocks."""
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
    x_row = x_ptr + row * N
    m = -float("inf")
    s = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=-float("inf"))
        tl.store(out_ptr + row * N + cols, _block_lse_scan(x, m, s), mask=mask)
        new_m = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m), axis=0)
        m = new_m


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    logcumsumexp_kernel[(M,)](x, out, N, BLOCK=1024, num_warps=4)
    return out
