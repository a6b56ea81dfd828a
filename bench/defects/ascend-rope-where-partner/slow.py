"""RoPE as x*cos + rotate_half(x)*sin: the rotate_half partner column is picked with tl.where on the offsets."""
import torch
import triton
import triton.language as tl


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, S, H, D, HALF,
                BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    pos = tok % S
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_D)
    first = cols < HALF
    # rotate_half: column j pairs with j + HALF (first half) or j - HALF (second half)
    partner = tl.where(first, cols + HALF, cols - HALF)
    freq = tl.where(first, cols, cols - HALF)
    mask = (heads[:, None] < H) & (cols[None, :] < D)
    row = tok * H * D + heads[:, None] * D
    x = tl.load(x_ptr + row + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    xr = tl.load(x_ptr + row + partner[None, :], mask=mask, other=0.0).to(tl.float32)
    c = tl.load(cos_ptr + pos * HALF + freq, mask=cols < D, other=0.0)[None, :]
    s = tl.load(sin_ptr + pos * HALF + freq, mask=cols < D, other=0.0)[None, :]
    sign = tl.where(first, -1.0, 1.0)[None, :]
    tl.store(out_ptr + row + cols[None, :], (x * c + sign * xr * s).to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    B, S, H, D = x.shape
    out = torch.empty_like(x)
    rope_kernel[(B * S,)](x, cos, sin, out, S, H, D, D // 2,
                          BLOCK_H=triton.next_power_of_2(H), BLOCK_D=triton.next_power_of_2(D))
    return out
