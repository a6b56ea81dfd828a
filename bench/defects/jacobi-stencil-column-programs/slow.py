"""Jacobi sweep: a 2-D grid of (column, block of rows) programs, vectors down a column."""
import torch
import triton
import triton.language as tl


@triton.jit
def jacobi_sweep_kernel(u_ptr, f_ptr, out_ptr, H, W, h2, BLOCK: tl.constexpr):
    j = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    inb = i < H
    interior = (i > 0) & (i < H - 1) & (j > 0) & (j < W - 1)
    c = i * W + j
    center = tl.load(u_ptr + c, mask=inb, other=0.0)
    up = tl.load(u_ptr + c - W, mask=interior, other=0.0)
    down = tl.load(u_ptr + c + W, mask=interior, other=0.0)
    left = tl.load(u_ptr + c - 1, mask=interior, other=0.0)
    right = tl.load(u_ptr + c + 1, mask=interior, other=0.0)
    rhs = tl.load(f_ptr + c, mask=interior, other=0.0)
    new = 0.25 * (up + down + left + right + h2 * rhs)
    tl.store(out_ptr + c, tl.where(interior, new, center), mask=inb)


def run(u: torch.Tensor, f: torch.Tensor, h2: float) -> torch.Tensor:
    H, W = u.shape
    out = torch.empty_like(u)
    BLOCK = 1024
    jacobi_sweep_kernel[(W, triton.cdiv(H, BLOCK))](u, f, out, H, W, h2, BLOCK=BLOCK)
    return out
