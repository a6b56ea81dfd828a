"""tril: one program per (batch * row, column block), written into an uninitialised (torch.empty) output."""
import torch
import triton
import triton.language as tl


@triton.jit
def tril_kernel(x_ptr, out_ptr, M, N, diagonal, BLOCK_N: tl.constexpr):
    r = tl.program_id(0)
    row = r % M
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    inb = cols < N
    x = tl.load(x_ptr + r * N + cols, mask=inb, other=0.0)
    keep = cols <= row + diagonal
    tl.store(out_ptr + r * N + cols, tl.where(keep, x, 0.0), mask=inb)


def run(x: torch.Tensor, diagonal: int) -> torch.Tensor:
    B, M, N = x.shape
    out = torch.empty_like(x)
    tril_kernel[(B * M, triton.cdiv(N, 1024))](x, out, M, N, diagonal, BLOCK_N=1024)
    return out
