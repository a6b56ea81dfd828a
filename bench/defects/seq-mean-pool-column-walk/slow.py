"""Sequence mean: one program per output element (batch, feature), a vector over the sequence axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def seq_mean_kernel(x_ptr, y_ptr, L, H, stride_b, stride_l, BLOCK_L: tl.constexpr):
    h = tl.program_id(0)
    b = tl.program_id(1)
    base = x_ptr + b.to(tl.int64) * stride_b + h
    acc = tl.zeros((BLOCK_L,), dtype=tl.float32)
    for start in range(0, L, BLOCK_L):
        ls = start + tl.arange(0, BLOCK_L)
        acc += tl.load(base + ls * stride_l, mask=ls < L, other=0.0).to(tl.float32)
    tl.store(y_ptr + b * H + h, (tl.sum(acc, axis=0) / L).to(y_ptr.dtype.element_ty))


def run(x: torch.Tensor) -> torch.Tensor:
    B, L, H = x.shape
    y = torch.empty((B, H), dtype=x.dtype, device=x.device)
    seq_mean_kernel[(H, B)](x, y, L, H, x.stride(0), x.stride(1), BLOCK_L=256)
    return y
