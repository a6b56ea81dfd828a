"""Cosine similarity: both inputs are first converted to fp32 copies (the x.float() of the PyTorch code, as a cast kernel), then reduced per row."""
import functools

import torch
import triton
import triton.language as tl


@triton.jit
def cast_fp32_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m).to(tl.float32), mask=m)


@triton.jit
def cosine_rows_kernel(a_ptr, b_ptr, out_ptr, D, eps, BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    ab = tl.zeros((BLOCK_D,), dtype=tl.float32)
    aa = tl.zeros((BLOCK_D,), dtype=tl.float32)
    bb = tl.zeros((BLOCK_D,), dtype=tl.float32)
    for start in range(0, D, BLOCK_D):
        cols = start + tl.arange(0, BLOCK_D)
        m = cols < D
        a = tl.load(a_ptr + row * D + cols, mask=m, other=0.0)
        b = tl.load(b_ptr + row * D + cols, mask=m, other=0.0)
        ab += a * b
        aa += a * a
        bb += b * b
    denom = tl.sqrt(tl.maximum(tl.sum(aa, axis=0) * tl.sum(bb, axis=0), eps * eps))
    tl.store(out_ptr + row, (tl.sum(ab, axis=0) / denom).to(out_ptr.dtype.element_ty))


def _launch(kernel, grid, *args, **meta):
    kernel[grid](*args, **meta)


cast_fp32 = functools.partial(_launch, cast_fp32_kernel, BLOCK=4096)
cosine_rows = functools.partial(_launch, cosine_rows_kernel, BLOCK_D=1024, num_warps=4)


def _float(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty(x.shape, device=x.device, dtype=torch.float32)
    cast_fp32((triton.cdiv(x.numel(), 4096),), x, y, x.numel())
    return y


def run(x1: torch.Tensor, x2: torch.Tensor, eps: float) -> torch.Tensor:
    T, D = x1.shape
    a, b = _float(x1), _float(x2)
    out = torch.empty((T,), device=x1.device, dtype=x1.dtype)
    cosine_rows((T,), a, b, out, D, eps)
    return out
