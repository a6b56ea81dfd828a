"""Transpose with both transfers contiguous: load the [BLOCK_M, BLOCK_N] input tile row-major,
transpose it on chip with tl.trans, store the [BLOCK_N, BLOCK_M] output tile row-major."""
import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    tile = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :],
                   mask=(rows[:, None] < M) & (cols[None, :] < N))
    tl.store(out_ptr + cols[:, None] * stride_out + rows[None, :], tl.trans(tile),
             mask=(cols[:, None] < N) & (rows[None, :] < M))


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty((N, M), dtype=x.dtype, device=x.device)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    transpose_kernel[grid](x, out, M, N, x.stride(0), out.stride(0), BLOCK_M=64, BLOCK_N=64)
    return out
