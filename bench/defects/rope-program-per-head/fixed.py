"""Rotary embedding with one program per token covering all heads as one [H, D/2] tile."""
import torch
import triton
import triton.language as tl


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, S, H, HALF,
                BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    pos = tok % S
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_D)
    mask = (heads[:, None] < H) & (cols[None, :] < HALF)
    offs = tok * H * 2 * HALF + heads[:, None] * 2 * HALF + cols[None, :]
    x1 = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(x_ptr + offs + HALF, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos * HALF + cols, mask=cols < HALF, other=0.0)[None, :]
    s = tl.load(sin_ptr + pos * HALF + cols, mask=cols < HALF, other=0.0)[None, :]
    tl.store(out_ptr + offs, (x1 * c - x2 * s).to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(out_ptr + offs + HALF, (x2 * c + x1 * s).to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    B, S, H, D = x.shape
    out = torch.empty_like(x)
    rope_kernel[(B * S,)](x, cos, sin, out, S, H, D // 2,
                          BLOCK_H=triton.next_power_of_2(H), BLOCK_D=triton.next_power_of_2(D // 2))
    return out
