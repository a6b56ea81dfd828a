"""torch.pdist: (i, j) tiles of |xi|^2 + |xj|^2 - 2 xi.xj, written to the condensed upper triangle."""
import torch
import triton
import triton.language as tl


@triton.jit
def _condensed_index(i, j, N):
    return i * N - (i * (i + 1)) // 2 + (j - i - 1)


@triton.jit
def pdist_kernel(x_ptr, out_ptr, N, D, stride_x,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    i = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    j = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    ni = tl.zeros((BLOCK_M,), dtype=tl.float32)
    nj = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        d = d0 + tl.arange(0, BLOCK_D)
        a = tl.load(x_ptr + i[:, None] * stride_x + d[None, :], mask=(i[:, None] < N) & (d[None, :] < D), other=0.0)
        b = tl.load(x_ptr + j[:, None] * stride_x + d[None, :], mask=(j[:, None] < N) & (d[None, :] < D), other=0.0)
        acc = tl.dot(a, tl.trans(b), acc)
        ni += tl.sum(a * a, axis=1)
        nj += tl.sum(b * b, axis=1)
    d2 = tl.maximum(ni[:, None] + nj[None, :] - 2.0 * acc, 0.0)
    dist = tl.sqrt(d2)
    keep = (i[:, None] < j[None, :]) & (j[None, :] < N)
    tl.store(out_ptr + _condensed_index(i[:, None], j[None, :], N), dist, mask=keep)


def run(x: torch.Tensor) -> torch.Tensor:
    N, D = x.shape
    out = torch.empty((N * (N - 1) // 2,), device=x.device, dtype=x.dtype)
    cfg = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_D": 32, "num_warps": 4, "num_stages": 3}
    grid = (triton.cdiv(N, cfg["BLOCK_M"]), triton.cdiv(N, cfg["BLOCK_N"]))
    pdist_kernel[grid](x, out, N, D, x.stride(0), **cfg)
    return out
