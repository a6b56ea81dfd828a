"""Weighted mean and variance of every state component of B particle filters (particles' wmean_and_var)."""
import torch
import triton
import triton.language as tl

BN = 512
_VECTOR_CORES = 40


@triton.jit
def _wmean_and_var(W, X, mean, var, B, N, D: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    rows0 = tl.arange(0, BN)
    comp = tl.arange(0, D)
    for b in range(pid, B, nprog):
        wb = W + b * N
        xb = X + b * N * D
        acc1 = tl.zeros([BN, D], dtype=tl.float32)
        acc2 = tl.zeros([BN, D], dtype=tl.float32)
        for start in range(0, N, BN):
            rows = start + rows0
            rmask = rows < N
            w = tl.load(wb + rows, mask=rmask, other=0.0)
            x = tl.load(xb + rows[:, None] * D + comp[None, :], mask=rmask[:, None], other=0.0)
            wx = w[:, None] * x
            acc1 += wx
            acc2 += wx * x
        m1 = tl.sum(acc1, axis=0)
        m2 = tl.sum(acc2, axis=0)
        tl.store(mean + b * D + comp, m1)
        tl.store(var + b * D + comp, m2 - m1 * m1)


def run(W: torch.Tensor, X: torch.Tensor) -> tuple:
    B, N, D = X.shape
    mean = torch.empty((B, D), device=X.device, dtype=X.dtype)
    var = torch.empty((B, D), device=X.device, dtype=X.dtype)
    grid = (min(_VECTOR_CORES, B),)
    _wmean_and_var[grid](W, X, mean, var, B, N, D=D, BN=BN)
    return mean, var
