"""0.5 * alpha^T dK/dtheta alpha for a Matern-5/2 ARD ScaleKernel: all-pairs reduction into D + 1 gradients."""
import torch
import triton
import triton.language as tl

BLOCK_M = 16
BLOCK_N = 32
SQRT5 = tl.constexpr(2.23606797749979)


@triton.jit
def _matern52_grad_sums(x, lengthscale, alpha, sum_ls, sum_os, N,
                        D: tl.constexpr, DP: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # coordinate-major tiles: [DP, BLOCK_M] rows, [DP, BLOCK_N] columns, [DP, BLOCK_M, BLOCK_N] pair differences
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < N
    dd = tl.arange(0, DP)
    d_ok = dd < D
    inv_ls = 1.0 / tl.load(lengthscale + dd, mask=d_ok, other=1.0)
    zi = tl.load(x + rows[None, :] * D + dd[:, None], mask=d_ok[:, None] & row_ok[None, :], other=0.0) * inv_ls[:, None]
    ai = tl.load(alpha + rows, mask=row_ok, other=0.0)
    acc_ls = tl.zeros([DP, BLOCK_M, BLOCK_N], dtype=tl.float32)
    acc_os = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for j0 in range(0, N, BLOCK_N):
        cols = j0 + tl.arange(0, BLOCK_N)
        col_ok = cols < N
        aj = tl.load(alpha + cols, mask=col_ok, other=0.0)
        zj = tl.load(x + cols[None, :] * D + dd[:, None], mask=d_ok[:, None] & col_ok[None, :], other=0.0) * inv_ls[:, None]
        delta = zi[:, :, None] - zj[:, None, :]
        sq = delta * delta
        r2 = tl.sum(sq, axis=0)
        r = tl.sqrt(r2)
        w = ai[:, None] * aj[None, :] * tl.exp(-SQRT5 * r)
        acc_os += w * (1.0 + SQRT5 * r + (5.0 / 3.0) * r2)
        acc_ls += (w * (1.0 + SQRT5 * r))[None, :, :] * sq
    tl.atomic_add(sum_ls + dd, tl.sum(tl.sum(acc_ls, axis=2), axis=1).to(tl.float64), mask=d_ok)
    tl.atomic_add(sum_os, tl.sum(tl.sum(acc_os, axis=1), axis=0).to(tl.float64))


@triton.jit
def _matern52_grad_finish(sum_ls, sum_os, lengthscale, grad_ls, grad_os, outputscale,
                          D: tl.constexpr, DP: tl.constexpr):
    dd = tl.arange(0, DP)
    d_ok = dd < D
    s_ls = tl.load(sum_ls + dd, mask=d_ok, other=0.0)
    ls = tl.load(lengthscale + dd, mask=d_ok, other=1.0).to(tl.float64)
    tl.store(grad_ls + dd, (0.5 * (5.0 / 3.0) * outputscale * s_ls / ls).to(tl.float32), mask=d_ok)
    tl.store(grad_os, (0.5 * tl.load(sum_os)).to(tl.float32))


def run(x: torch.Tensor, lengthscale: torch.Tensor, outputscale: float, alpha: torch.Tensor) -> tuple:
    N, D = x.shape
    DP = triton.next_power_of_2(D)
    sum_ls = torch.zeros(DP, device=x.device, dtype=torch.float64)
    sum_os = torch.zeros(1, device=x.device, dtype=torch.float64)
    grad_ls = torch.empty(D, device=x.device, dtype=torch.float32)
    grad_os = torch.empty(1, device=x.device, dtype=torch.float32)
    _matern52_grad_sums[(triton.cdiv(N, BLOCK_M),)](x, lengthscale, alpha, sum_ls, sum_os, N,
                                                    D=D, DP=DP, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    _matern52_grad_finish[(1,)](sum_ls, sum_os, lengthscale, grad_ls, grad_os, outputscale, D=D, DP=DP)
    return grad_ls, grad_os
