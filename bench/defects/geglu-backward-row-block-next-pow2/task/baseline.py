"""GeGLU backward: flat kernel over 1024-element blocks."""
import torch
import triton
import triton.language as tl

BLOCK_SIZE = 1024  # 8 elements per thread with 4 warps


@triton.jit
def geglu_exact_backward_kernel(dh_ptr, e_ptr, g_ptr, h_ptr, dup_ptr, dgate_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dh = tl.load(dh_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    e = tl.load(e_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    g = tl.load(g_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    cdf = 0.5 * (1.0 + tl.erf(e * 0.7071067811865476))
    f = e * cdf
    pdf = tl.exp(-0.5 * e * e) * 0.3989422804014327
    tl.store(h_ptr + offs, (f * g).to(h_ptr.dtype.element_ty), mask=mask)
    tl.store(dup_ptr + offs, (dh * f).to(dup_ptr.dtype.element_ty), mask=mask)
    tl.store(dgate_ptr + offs, (dh * g * (cdf + e * pdf)).to(dgate_ptr.dtype.element_ty), mask=mask)


def run(dh: torch.Tensor, e: torch.Tensor, g: torch.Tensor):
    h, dup, dgate = torch.empty_like(dh), torch.empty_like(dh), torch.empty_like(dh)
    n = dh.numel()
    geglu_exact_backward_kernel[(triton.cdiv(n, BLOCK_SIZE),)](dh, e, g, h, dup, dgate, n, BLOCK=BLOCK_SIZE)
    return h, dup, dgate
