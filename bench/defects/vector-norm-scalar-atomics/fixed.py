"""vector_norm (ord 2, dim=None) in two stages: each program writes its block's sum of squares, one program sums them and takes the sqrt."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def sum_squares_kernel(x_ptr, mid_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < N, other=0.0).to(tl.float32)
    tl.store(mid_ptr + pid, tl.sum(x * x))


@triton.jit
def finish_kernel(mid_ptr, out_ptr, MID, BLOCK_MID: tl.constexpr):
    offs = tl.arange(0, BLOCK_MID)
    mid = tl.load(mid_ptr + offs, mask=offs < MID, other=0.0)
    tl.store(out_ptr, tl.sqrt(tl.sum(mid)))


def run(x: torch.Tensor) -> torch.Tensor:
    N = x.numel()
    block = triton.next_power_of_2(math.ceil(math.sqrt(N)))
    mid_size = triton.cdiv(N, block)
    mid = torch.empty(mid_size, dtype=torch.float32, device=x.device)
    out = torch.empty((), dtype=torch.float32, device=x.device)
    sum_squares_kernel[(mid_size,)](x, mid, N, BLOCK=block, num_warps=8)
    finish_kernel[(1,)](mid, out, mid_size, BLOCK_MID=triton.next_power_of_2(mid_size), num_warps=8)
    return out
