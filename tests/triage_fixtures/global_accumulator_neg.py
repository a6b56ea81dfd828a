# backend: cuda
# absent: cuda-global-accumulator
import torch
import triton
import triton.language as tl


@triton.jit
def colsum_kernel(x_ptr, part_ptr, M, N, rows_per_program, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    for c0 in range(0, N, BLOCK_N):
        cols = c0 + tl.arange(0, BLOCK_N)
        acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
        for row in range(pid * rows_per_program, tl.minimum((pid + 1) * rows_per_program, M)):
            acc += tl.load(x_ptr + row * N + cols, mask=cols < N, other=0.0)
        tl.store(part_ptr + pid * N + cols, acc, mask=cols < N)


@triton.jit
def axpy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        y = tl.load(y_ptr + offs, mask=offs < n)
        tl.store(y_ptr + offs, y + 2.0 * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def run(x, y):
    M, N = x.shape
    part = torch.empty((64, N), device=x.device, dtype=torch.float32)
    colsum_kernel[(64,)](x, part, M, N, triton.cdiv(M, 64), BLOCK_N=256)
    axpy_kernel[(1,)](x, y, x.numel(), BLOCK=1024)
    return part.sum(0)
