"""SwiGLU backward in one kernel: a, b and dc read once, da and db written from the same registers."""
import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_bwd_kernel(a_ptr, b_ptr, dc_ptr, da_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    sig = tl.sigmoid(a)
    silu = a * sig
    tl.store(da_ptr + offs, (dc * b * (sig + silu * (1.0 - sig))).to(da_ptr.dtype.element_ty), mask=mask)
    tl.store(db_ptr + offs, (dc * silu).to(db_ptr.dtype.element_ty), mask=mask)


def run(a: torch.Tensor, b: torch.Tensor, dc: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    da = torch.empty_like(a)
    db = torch.empty_like(b)
    n = a.numel()
    swiglu_bwd_kernel[(triton.cdiv(n, 2048),)](a, b, dc, da, db, n, BLOCK=2048)
    return da, db
