"""Projected Jacobi iterations on the contact dual, lam <- max(0, lam - omega (A lam + b) / diag(A)), per world."""
import torch
import triton
import triton.language as tl


@triton.jit
def _dual_jacobi(A, b, lam_in, lam_out, n, omega, BN: tl.constexpr):
    world = tl.program_id(0)
    rows = tl.arange(0, BN)
    cols = tl.arange(0, BN)
    row_ok = rows < n
    col_ok = cols < n
    A_w = A + world * n * n
    a = tl.load(A_w + rows[:, None] * n + cols[None, :], mask=row_ok[:, None] & col_ok[None, :], other=0.0)
    step = omega / tl.load(A_w + rows * (n + 1), mask=row_ok, other=1.0)
    bb = tl.load(b + world * n + rows, mask=row_ok, other=0.0)
    lam = tl.load(lam_in + world * n + rows, mask=row_ok, other=0.0)
    lam_c = tl.load(lam_in + world * n + cols, mask=col_ok, other=0.0)
    res = tl.sum(a * lam_c[None, :], axis=1) + bb
    lam = tl.maximum(lam - step * res, 0.0)
    tl.store(lam_out + world * n + rows, lam, mask=row_ok)


def run(A: torch.Tensor, b: torch.Tensor, lam0: torch.Tensor, iterations: int, omega: float) -> torch.Tensor:
    worlds, n, _ = A.shape
    BN = triton.next_power_of_2(n)
    bufs = (torch.empty_like(lam0), torch.empty_like(lam0))
    lam = lam0
    for it in range(iterations):
        nxt = bufs[it % 2]
        _dual_jacobi[(worlds,)](A, b, lam, nxt, n, omega, BN=BN, num_warps=4)
        lam = nxt
    return lam
