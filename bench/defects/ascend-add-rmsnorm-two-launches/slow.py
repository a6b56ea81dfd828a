"""Residual add + RMSNorm for triton-ascend: one program per vector core looping over rows, the add and the norm as two launches."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B): 24 AI cores x 2 vector units


@triton.jit
def residual_add_kernel(x_ptr, res_ptr, h_ptr, M, N, stride_row, NUM_PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    for row in range(tl.program_id(0), M, NUM_PROGRAMS):
        x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(res_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(h_ptr + row * stride_row + cols, (x + r).to(h_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rmsnorm_kernel(h_ptr, w_ptr, out_ptr, M, N, stride_row, eps, NUM_PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    for row in range(tl.program_id(0), M, NUM_PROGRAMS):
        h = tl.load(h_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = 1.0 / tl.sqrt(tl.sum(h * h, axis=0) / N + eps)
        tl.store(out_ptr + row * stride_row + cols, (h * rstd * w).to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, residual: torch.Tensor, w: torch.Tensor) -> tuple:
    M, N = x.shape
    out = torch.empty_like(x)
    h = torch.empty_like(x)
    grid = (min(M, NUM_VECTOR_CORES),)
    block = triton.next_power_of_2(N)
    residual_add_kernel[grid](x, residual, h, M, N, x.stride(0), NUM_PROGRAMS=grid[0], BLOCK=block)
    rmsnorm_kernel[grid](h, w, out, M, N, x.stride(0), 1e-6, NUM_PROGRAMS=grid[0], BLOCK=block)
    return out, h
