"""Correct but unusual (layernorm): a pipeline of two kernels, row statistics to a buffer, then the
normalisation reading them back."""
import torch
import triton
import triton.language as tl


@triton.jit
def row_stats(x_ptr, mean_ptr, rstd_ptr, N, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    d = tl.where(cols < N, x - mean, 0.0)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / N + eps))


@triton.jit
def normalise(x_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    row, block = tl.program_id(0), tl.program_id(1)
    cols = block * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + cols, mask=mask).to(tl.float32)
    y = (x - tl.load(mean_ptr + row)) * tl.load(rstd_ptr + row) * w + b
    tl.store(out_ptr + row * stride + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    mean = torch.empty((M,), dtype=torch.float32, device=x.device)
    rstd = torch.empty((M,), dtype=torch.float32, device=x.device)
    row_stats[(M,)](x, mean, rstd, N, x.stride(0), 1e-5, BLOCK=triton.next_power_of_2(N))
    out = torch.empty_like(x)
    normalise[(M, triton.cdiv(N, 256))](x, w, b, mean, rstd, out, N, x.stride(0), BLOCK=256)
    return out
