"""Bias + residual add: the host wrapper runs the bias-add kernel, then the residual-add kernel on its output."""
import torch
import triton
import triton.language as tl


@triton.jit
def bias_add_kernel(x_ptr, bias_ptr, out_ptr, H, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < H
    x = tl.load(x_ptr + row * H + cols, mask=mask)
    b = tl.load(bias_ptr + cols, mask=mask)
    tl.store(out_ptr + row * H + cols, (x.to(tl.float32) + b.to(tl.float32)).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, (a + b).to(out_ptr.dtype.element_ty), mask=mask)


def _bias_add(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    T, H = x.shape
    out = torch.empty_like(x)
    bias_add_kernel[(T, triton.cdiv(H, 2048))](x, bias, out, H, BLOCK=2048, num_warps=4)
    return out


def _residual_add(residual: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(y)
    n = y.numel()
    add_kernel[(triton.cdiv(n, 4096),)](residual, y, out, n, BLOCK=4096, num_warps=4)
    return out


def run(x: torch.Tensor, bias: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
    # bias_dropout_add with p = 0 (inference): dropout is the identity
    return _residual_add(residual, _bias_add(x, bias))
