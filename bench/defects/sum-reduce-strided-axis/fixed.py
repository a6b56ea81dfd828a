"""Row sum over [BLOCK_M, BLOCK_N] tiles reduced along axis 1, the contiguous axis of each row."""
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, M, N, stride_row, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        tile = tl.load(x_ptr + rows[:, None] * stride_row + cols[None, :],
                       mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.0)
        acc += tl.sum(tile.to(tl.float32), axis=1)
    tl.store(out_ptr + rows, acc.to(out_ptr.dtype.element_ty), mask=rows < M)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, dtype=x.dtype, device=x.device)
    sum_kernel[(triton.cdiv(M, 16),)](x, out, M, N, x.stride(0), BLOCK_M=16, BLOCK_N=256)
    return out
