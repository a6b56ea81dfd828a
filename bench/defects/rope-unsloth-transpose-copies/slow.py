"""RoPE, token-row kernel: q and k are moved to [B, S, H, D] rows, rotated one token (all heads) per program, and moved back."""
import torch
import triton
import triton.language as tl


@triton.jit
def rope_rows_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, S, H,
                     BLOCK_H: tl.constexpr, HALF: tl.constexpr):
    row = tl.program_id(0)          # token index in [B * S]
    pos = row % S
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, HALF)
    mask = heads[:, None] < H
    base = row.to(tl.int64) * H * 2 * HALF + heads[:, None] * 2 * HALF + cols[None, :]
    cos = tl.load(cos_ptr + pos * HALF + cols)[None, :]
    sin = tl.load(sin_ptr + pos * HALF + cols)[None, :]
    x1 = tl.load(x_ptr + base, mask=mask).to(tl.float32)
    x2 = tl.load(x_ptr + base + HALF, mask=mask).to(tl.float32)
    tl.store(out_ptr + base, (x1 * cos - x2 * sin).to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(out_ptr + base + HALF, (x2 * cos + x1 * sin).to(out_ptr.dtype.element_ty), mask=mask)


def _rope_rows(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    B, H, S, D = x.shape
    rows = x.transpose(1, 2).contiguous()          # [B, S, H, D]: one token's heads side by side
    out = torch.empty_like(rows)
    rope_rows_kernel[(B * S,)](rows, cos, sin, out, S, H, BLOCK_H=triton.next_power_of_2(H), HALF=D // 2,
                               num_warps=4)
    return out.transpose(1, 2).contiguous()        # back to the attention layout [B, H, S, D]


def run(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple:
    return _rope_rows(q, cos, sin), _rope_rows(k, cos, sin)
