"""cumsum along dim 1 of [B, L, H]: one program per (batch, 32-channel block) walks the sequence in [64, 32] row tiles (128-byte row segments)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _row_tile(ptr, rows, h, H, mask):
    # sequence positions `rows` x channels `h`, rows contiguous in memory
    return tl.load(ptr + rows[:, None] * H + h[None, :], mask=mask, other=0.0)


@triton.jit
def cumsum_dim1_kernel(x_ptr, y_ptr, L, H, BLOCK_L: tl.constexpr, BLOCK_H: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    base = b.to(tl.int64) * L * H
    carry = tl.zeros((BLOCK_H,), dtype=tl.float32)
    for l0 in range(0, L, BLOCK_L):
        rows = l0 + tl.arange(0, BLOCK_L)
        m = (rows[:, None] < L) & (h[None, :] < H)
        x = _row_tile(x_ptr + base, rows, h, H, m)
        tl.store(y_ptr + base + rows[:, None] * H + h[None, :], tl.cumsum(x, axis=0) + carry[None, :], mask=m)
        carry += tl.sum(x, axis=0)


def run(x: torch.Tensor) -> torch.Tensor:
    B, L, H = x.shape
    y = torch.empty_like(x)
    cumsum_dim1_kernel[(B, triton.cdiv(H, 32))](x, y, L, H, BLOCK_L=64, BLOCK_H=32)
    return y
