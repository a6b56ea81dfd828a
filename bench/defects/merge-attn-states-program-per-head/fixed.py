"""merge_attn_states: one program per token merges all its heads as one [H, D] tile."""
import torch
import triton
import triton.language as tl


@triton.jit
def merge_kernel(out_ptr, p_out_ptr, p_lse_ptr, s_out_ptr, s_lse_ptr, T, H, D, stride_t, stride_h,
                 BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0).to(tl.int64)
    rh = tl.arange(0, BLOCK_H)
    rd = tl.arange(0, BLOCK_D)
    hmask = rh < H
    p_lse = tl.load(p_lse_ptr + rh * T + tok, mask=hmask, other=0.0)
    s_lse = tl.load(s_lse_ptr + rh * T + tok, mask=hmask, other=0.0)
    m = tl.maximum(p_lse, s_lse)
    pw = tl.exp(p_lse - m)
    sw = tl.exp(s_lse - m)
    inv = 1.0 / (pw + sw)
    offs = tok * stride_t + rh[:, None] * stride_h + rd[None, :]
    mask = hmask[:, None] & (rd[None, :] < D)
    p = tl.load(p_out_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.load(s_out_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    out = p * (pw * inv)[:, None] + s * (sw * inv)[:, None]
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


def run(p_out: torch.Tensor, p_lse: torch.Tensor, s_out: torch.Tensor, s_lse: torch.Tensor) -> torch.Tensor:
    T, H, D = p_out.shape
    out = torch.empty_like(p_out)
    merge_kernel[(T,)](out, p_out, p_lse, s_out, s_lse, T, H, D, p_out.stride(0), p_out.stride(1),
                       BLOCK_H=triton.next_power_of_2(H), BLOCK_D=triton.next_power_of_2(D))
    return out
