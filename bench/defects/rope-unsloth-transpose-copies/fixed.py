"""RoPE on the attention layout as given: grid (batch * head, token block), no layout copies."""
import torch
import triton
import triton.language as tl


@triton.jit
def rope_bhsd_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, S, BLOCK_S: tl.constexpr, HALF: tl.constexpr):
    bh = tl.program_id(0)
    pos = tl.program_id(1) * BLOCK_S + tl.arange(0, BLOCK_S)
    cols = tl.arange(0, HALF)
    mask = pos[:, None] < S
    base = bh.to(tl.int64) * S * 2 * HALF + pos[:, None] * 2 * HALF + cols[None, :]
    cos = tl.load(cos_ptr + pos[:, None] * HALF + cols[None, :], mask=mask, other=0.0)
    sin = tl.load(sin_ptr + pos[:, None] * HALF + cols[None, :], mask=mask, other=0.0)
    x1 = tl.load(x_ptr + base, mask=mask).to(tl.float32)
    x2 = tl.load(x_ptr + base + HALF, mask=mask).to(tl.float32)
    tl.store(out_ptr + base, (x1 * cos - x2 * sin).to(out_ptr.dtype.element_ty), mask=mask)
    tl.store(out_ptr + base + HALF, (x2 * cos + x1 * sin).to(out_ptr.dtype.element_ty), mask=mask)


def _rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    B, H, S, D = x.shape
    out = torch.empty_like(x)
    BLOCK_S = 64
    rope_bhsd_kernel[(B * H, triton.cdiv(S, BLOCK_S))](x, cos, sin, out, S, BLOCK_S=BLOCK_S, HALF=D // 2,
                                                       num_warps=4)
    return out


def run(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> tuple:
    return _rope(q, cos, sin), _rope(k, cos, sin)
