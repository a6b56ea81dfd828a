"""Baseline sequence mean: (feature block, batch) grid, tiles along the contiguous feature axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def seq_mean_kernel(x_ptr, y_ptr, L, H, stride_b, stride_l, BLOCK_L: tl.constexpr, BLOCK_H: tl.constexpr):
    hs = tl.program_id(0) * BLOCK_H + tl.arange(0, BLOCK_H)
    b = tl.program_id(1)
    base = x_ptr + b.to(tl.int64) * stride_b
    acc = tl.zeros((BLOCK_L, BLOCK_H), dtype=tl.float32)
    for start in range(0, L, BLOCK_L):
        ls = start + tl.arange(0, BLOCK_L)
        m = (ls[:, None] < L) & (hs[None, :] < H)
        acc += tl.load(base + ls[:, None] * stride_l + hs[None, :], mask=m, other=0.0).to(tl.float32)
    tl.store(y_ptr + b * H + hs, (tl.sum(acc, axis=0) / L).to(y_ptr.dtype.element_ty), mask=hs < H)


def run(x: torch.Tensor) -> torch.Tensor:
    B, L, H = x.shape
    y = torch.empty((B, H), dtype=x.dtype, device=x.device)
    seq_mean_kernel[(triton.cdiv(H, 256), B)](x, y, L, H, x.stride(0), x.stride(1), BLOCK_L=32, BLOCK_H=256)
    return y
