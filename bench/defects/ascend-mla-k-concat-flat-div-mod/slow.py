"""MLA key concat on triton-ascend, written as a flat elementwise kernel over the [T, H, 192] output: each
element decodes (token, head, column) from its flat index and picks its source."""
import torch
import triton
import triton.language as tl

NUM_CORES = 48  # Atlas A2 vector cores


@triton.jit
def mla_k_concat_kernel(knope_ptr, kpe_ptr, out_ptr, total, H, stride_nt, stride_nh, stride_pt,
                        D_NOPE: tl.constexpr, D: tl.constexpr, BLOCK: tl.constexpr):
    step = tl.num_programs(0) * BLOCK
    for start in range(tl.program_id(0) * BLOCK, total, step):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < total
        c = offs % D
        th = offs // D
        t = th // H
        h = th % H
        is_nope = c < D_NOPE
        a = tl.load(knope_ptr + t * stride_nt + h * stride_nh + c, mask=mask & is_nope, other=0.0)
        b = tl.load(kpe_ptr + t * stride_pt + (c - D_NOPE), mask=mask & (c >= D_NOPE), other=0.0)
        tl.store(out_ptr + offs, tl.where(is_nope, a, b), mask=mask)


def run(k_nope: torch.Tensor, k_pe: torch.Tensor) -> torch.Tensor:
    T, H, d_nope = k_nope.shape
    d = d_nope + k_pe.shape[-1]
    out = torch.empty((T, H, d), dtype=k_nope.dtype, device=k_nope.device)
    total = out.numel()
    BLOCK = 4096
    grid = (min(NUM_CORES, triton.cdiv(total, BLOCK)),)
    mla_k_concat_kernel[grid](k_nope, k_pe, out, total, H, k_nope.stride(0), k_nope.stride(1), k_pe.stride(0),
                              D_NOPE=d_nope, D=d, BLOCK=BLOCK)
    return out
