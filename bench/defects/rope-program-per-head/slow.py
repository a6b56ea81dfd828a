"""Rotary embedding (rotate_half layout) with one program per (token, head)."""
import torch
import triton
import triton.language as tl


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, S, H, HALF, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    head = tl.program_id(1)
    pos = tok % S
    cols = tl.arange(0, BLOCK_D)
    mask = cols < HALF
    offs = (tok * H + head) * 2 * HALF + cols
    x1 = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x2 = tl.load(x_ptr + offs + HALF, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos * HALF + cols, mask=mask, other=0.0)
    s = tl.load(sin_ptr + pos * HALF + cols, mask=mask, other=0.0)
    tl.store(out_ptr + offs, (x1 * c - x2 * s).to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(out_ptr + offs + HALF, (x2 * c + x1 * s).to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    B, S, H, D = x.shape
    out = torch.empty_like(x)
    rope_kernel[(B * S, H)](x, cos, sin, out, S, H, D // 2, BLOCK_D=triton.next_power_of_2(D // 2))
    return out
