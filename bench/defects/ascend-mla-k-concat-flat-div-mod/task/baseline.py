"""MLA key concat on triton-ascend: per token, two contiguous, unmasked slice copies ([H, 128] and the
broadcast [64] row), no index arithmetic."""
import torch
import triton
import triton.language as tl

NUM_CORES = 48  # Atlas A2 vector cores


@triton.jit
def mla_k_concat_kernel(knope_ptr, kpe_ptr, out_ptr, T, stride_nt, stride_nh, stride_pt,
                        H: tl.constexpr, D_NOPE: tl.constexpr, D_ROPE: tl.constexpr):
    D: tl.constexpr = D_NOPE + D_ROPE
    heads = tl.arange(0, H)
    dn = tl.arange(0, D_NOPE)
    dr = tl.arange(0, D_ROPE)
    for t in range(tl.program_id(0), T, tl.num_programs(0)):
        dst = out_ptr + t * H * D + heads[:, None] * D
        a = tl.load(knope_ptr + t * stride_nt + heads[:, None] * stride_nh + dn[None, :])
        tl.store(dst + dn[None, :], a)
        b = tl.load(kpe_ptr + t * stride_pt + dr)
        tl.store(dst + D_NOPE + dr[None, :], tl.broadcast_to(b[None, :], (H, D_ROPE)))


def run(k_nope: torch.Tensor, k_pe: torch.Tensor) -> torch.Tensor:
    T, H, d_nope = k_nope.shape
    d_rope = k_pe.shape[-1]
    out = torch.empty((T, H, d_nope + d_rope), dtype=k_nope.dtype, device=k_nope.device)
    grid = (min(NUM_CORES, T),)
    mla_k_concat_kernel[grid](k_nope, k_pe, out, T, k_nope.stride(0), k_nope.stride(1), k_pe.stride(0),
                              H=H, D_NOPE=d_nope, D_ROPE=d_rope)
    return out
