"""RoPE that loads each head as one [2, HALF] tile and splits the halves with permute + split."""
import torch
import triton
import triton.language as tl


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, S, H, HALF,
                BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr):
    tok = tl.program_id(0)
    pos = tok % S
    heads = tl.arange(0, BLOCK_H)
    part = tl.arange(0, 2)
    cols = tl.arange(0, BLOCK_D)
    # one [BLOCK_H, 2, BLOCK_D] tile per token: part 0 is x1, part 1 is x2 (rotate_half layout)
    offs = tok * H * 2 * HALF + heads[:, None, None] * 2 * HALF + part[None, :, None] * HALF + cols[None, None, :]
    mask = (heads[:, None, None] < H) & (cols[None, None, :] < HALF) & (part[None, :, None] < 2)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x1, x2 = tl.split(tl.permute(x, (0, 2, 1)))  # halves as [BLOCK_H, BLOCK_D] each
    c = tl.load(cos_ptr + pos * HALF + cols, mask=cols < HALF, other=0.0)[None, :]
    s = tl.load(sin_ptr + pos * HALF + cols, mask=cols < HALF, other=0.0)[None, :]
    y = tl.permute(tl.join(x1 * c - x2 * s, x2 * c + x1 * s), (0, 2, 1))
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    B, S, H, D = x.shape
    out = torch.empty_like(x)
    rope_kernel[(B * S,)](x, cos, sin, out, S, H, D // 2,
                          BLOCK_H=triton.next_power_of_2(H), BLOCK_D=triton.next_power_of_2(D // 2))
    return out
