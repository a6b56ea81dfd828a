"""Vocabulary log-sum-exp: one helper loops over the row once, carrying the running max and the rescaled sum (online log-sum-exp)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _row_lse(row_ptr, N, BLOCK: tl.constexpr):
    m = float("-inf")
    s = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(row_ptr + cols, mask=cols < N, other=float("-inf"))
        new_m = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m), axis=0)
        m = new_m
    return m + tl.log(s)


@triton.jit
def logsumexp_kernel(x_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    row_ptr = x_ptr + tl.program_id(0).to(tl.int64) * stride
    tl.store(out_ptr + tl.program_id(0), _row_lse(row_ptr, N, BLOCK))


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty((M,), device=x.device, dtype=x.dtype)
    logsumexp_kernel[(M,)](x, out, N, x.stride(0), BLOCK=4096, num_warps=8)
    return out
