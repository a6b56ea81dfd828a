"""GeGLU backward: one program per row, the whole row as one block (BLOCK = next_power_of_2(N))."""
import torch
import triton
import triton.language as tl


@triton.jit
def geglu_exact_backward_kernel(dh_ptr, e_ptr, g_ptr, h_ptr, dup_ptr, dgate_ptr, N, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    offs = tl.program_id(0) * N + cols
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
    M, N = dh.shape
    BLOCK = triton.next_power_of_2(N)
    geglu_exact_backward_kernel[(M,)](dh, e, g, h, dup, dgate, N, BLOCK=BLOCK)
    return h, dup, dgate
