"""KeOps-style RBF kernel matmul: outputscale * exp(-0.5 |(x_i - x_j) / l|^2) @ rhs, the kernel never stored."""
import torch
import triton
import triton.language as tl

BLOCK_M = 64
BLOCK_N = 64


@triton.jit
def _rbf_matmul(x, lengthscale, rhs, out, N, T, outputscale,
                D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_ok = rows < N
    t = tl.program_id(1)
    acc = tl.zeros([BLOCK_M], dtype=tl.float32)
    for j0 in range(0, N, BLOCK_N):
        cols = j0 + tl.arange(0, BLOCK_N)
        col_ok = cols < N
        d2 = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for d in tl.static_range(D):
            il = 1.0 / tl.load(lengthscale + d)
            xi = tl.load(x + rows * D + d, mask=row_ok, other=0.0) * il
            xj = tl.load(x + cols * D + d, mask=col_ok, other=0.0) * il
            diff = xi[:, None] - xj[None, :]
            d2 += diff * diff
        k = tl.exp(-0.5 * d2)
        v = tl.load(rhs + cols * T + t, mask=col_ok, other=0.0)
        acc += tl.sum(k * v[None, :], axis=1)
    tl.store(out + rows * T + t, acc * outputscale, mask=row_ok)


def run(x: torch.Tensor, lengthscale: torch.Tensor, outputscale: float, rhs: torch.Tensor) -> torch.Tensor:
    N, D = x.shape
    T = rhs.shape[1]
    out = torch.empty((N, T), device=x.device, dtype=torch.float32)
    _rbf_matmul[(triton.cdiv(N, BLOCK_M), T)](x, lengthscale, rhs, out, N, T, outputscale,
                                              D=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
