# backend: cuda
# absent: cuda-too-few-warps
import torch
import triton
import triton.language as tl


@triton.jit
def row_max(x_ptr, y_ptr, n, stride, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * stride + cols, mask=cols < n, other=0.0)
    tl.store(y_ptr + tl.program_id(0), tl.max(x, axis=0))


def run(x):
    y = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)
    # a 256-element tile on one warp is 8 values per thread: fine
    row_max[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=256, num_warps=1)
    row_max[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]), num_warps=8)
    return y
