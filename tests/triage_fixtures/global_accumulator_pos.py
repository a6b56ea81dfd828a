# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def colsum_kernel(x_ptr, part_ptr, M, N, rows_per_program, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    for row in range(pid * rows_per_program, tl.minimum((pid + 1) * rows_per_program, M)):
        for c0 in range(0, N, BLOCK_N):
            cols = c0 + tl.arange(0, BLOCK_N)
            x = tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0)
            acc = tl.load(part_ptr + pid * N + cols, mask=cols < N, other=0.0)
            tl.store(part_ptr + pid * N + cols, acc + x, mask=cols < N)  # expect: cuda-global-accumulator


def run(x):
    M, N = x.shape
    part = torch.zeros((64, N), device=x.device, dtype=torch.float32)
    colsum_kernel[(64,)](x, part, M, N, triton.cdiv(M, 64), BLOCK_N=256)
    return part.sum(0)
