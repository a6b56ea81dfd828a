"""SwiGLU backward as two kernels, one per gradient: da from (a, b, dc), then db from (a, dc)."""
import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_grad_a_kernel(a_ptr, b_ptr, dc_ptr, da_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    sig = tl.sigmoid(a)
    tl.store(da_ptr + offs, (dc * b * (sig + a * sig * (1.0 - sig))).to(da_ptr.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_grad_b_kernel(a_ptr, dc_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(db_ptr + offs, (dc * a * tl.sigmoid(a)).to(db_ptr.dtype.element_ty), mask=mask)


def run(a: torch.Tensor, b: torch.Tensor, dc: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    da = torch.empty_like(a)
    db = torch.empty_like(b)
    n = a.numel()
    grid = (triton.cdiv(n, 2048),)
    swiglu_grad_a_kernel[grid](a, b, dc, da, n, BLOCK=2048)
    swiglu_grad_b_kernel[grid](a, dc, db, n, BLOCK=2048)
    return da, db
