# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def seq_sum_kernel(x_ptr, y_ptr, L, H, stride_b, stride_l, BLOCK_L: tl.constexpr):
    # one program per (feature, batch): the tile runs along the sequence axis, H elements apart
    h = tl.program_id(0)
    b = tl.program_id(1)
    acc = tl.zeros((BLOCK_L,), dtype=tl.float32)
    for start in range(0, L, BLOCK_L):
        ls = start + tl.arange(0, BLOCK_L)
        acc += tl.load(x_ptr + b * stride_b + h + ls * stride_l, mask=ls < L, other=0.0)  # expect: cuda-strided-fast-axis
    tl.store(y_ptr + b * H + h, tl.sum(acc, axis=0))


def run(x: torch.Tensor) -> torch.Tensor:
    B, L, H = x.shape
    y = torch.empty((B, H), dtype=x.dtype, device=x.device)
    seq_sum_kernel[(H, B)](x, y, L, H, x.stride(0), x.stride(1), BLOCK_L=256)
    return y
