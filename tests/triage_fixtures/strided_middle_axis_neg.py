# backend: cuda
# absent: cuda-strided-fast-axis
import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, y_ptr, N, stride_m, stride_n, BLOCK: tl.constexpr):
    # stride_n is the last axis's stride of a 2-D tensor: 1 for a contiguous one
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride_m + cols * stride_n, mask=cols < N, other=0.0)
    tl.store(y_ptr + row, tl.sum(acc, axis=0))


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    y = torch.empty((M,), dtype=x.dtype, device=x.device)
    row_sum_kernel[(M,)](x, y, N, x.stride(0), x.stride(1), BLOCK=1024)
    return y
