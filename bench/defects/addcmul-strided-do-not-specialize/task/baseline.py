"""Baseline: addcmul on 2-D tensors of any strides: one program per (row, 2048-column block)."""
import torch
import triton
import triton.language as tl


@triton.jit
def addcmul_kernel(x_ptr, t1_ptr, t2_ptr, out_ptr, value, N,
                   stride_x, stride_t1, stride_t2, stride_o, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(t1_ptr + row * stride_t1 + cols, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(t2_ptr + row * stride_t2 + cols, mask=mask, other=0.0).to(tl.float32)
    y = x + value * a * b
    tl.store(out_ptr + row * stride_o + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, t1: torch.Tensor, t2: torch.Tensor, value: float) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    grid = (M, triton.cdiv(N, 2048))
    addcmul_kernel[grid](x, t1, t2, out, value, N,
                         x.stride(0), t1.stride(0), t2.stride(0), out.stride(0), BLOCK=2048)
    return out
