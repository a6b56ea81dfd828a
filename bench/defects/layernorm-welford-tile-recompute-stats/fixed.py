"""Layer norm with Welford statistics, one program per row: the statistics once, then a loop that normalises the row."""
import torch
import triton
import triton.language as tl


@triton.jit
def _welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    frac = tl.where(n > 0, n_b / tl.maximum(n, 1.0), 0.0)
    delta = mean_b - mean_a
    return mean_a + delta * frac, m2_a + m2_b + delta * delta * n_a * frac, n


@triton.jit
def _row_stats(row_ptr, N, eps, BLOCK_N: tl.constexpr):
    mean = tl.zeros((BLOCK_N,), dtype=tl.float32)
    m2 = tl.zeros((BLOCK_N,), dtype=tl.float32)
    count = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        m = cols < N
        x = tl.load(row_ptr + cols, mask=m, other=0.0).to(tl.float32)
        count += m.to(tl.float32)
        delta = tl.where(m, x - mean, 0.0)
        mean += delta / tl.maximum(count, 1.0)
        m2 += delta * tl.where(m, x - mean, 0.0)
    mean, m2, count = tl.reduce((mean, m2, count), 0, _welford_combine)
    return mean, 1.0 / tl.sqrt(m2 / N + eps)


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = x_ptr + row.to(tl.int64) * stride
    mean, rstd = _row_stats(row_ptr, N, eps, BLOCK_N)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        m = cols < N
        x = tl.load(row_ptr + cols, mask=m, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * tl.load(w_ptr + cols, mask=m) + tl.load(b_ptr + cols, mask=m)
        tl.store(y_ptr + row.to(tl.int64) * stride + cols, y.to(y_ptr.dtype.element_ty), mask=m)


def run(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, eps: float) -> torch.Tensor:
    M, N = x.shape
    y = torch.empty_like(x)
    layer_norm_kernel[(M,)](x, w, b, y, N, x.stride(0), eps, BLOCK_N=1024)
    return y
