"""Row sum over [BLOCK_N, BLOCK_M] tiles: columns on axis 0, rows on axis 1, reduced along axis 0."""
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, M, N, stride_row, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        # tile[c, r] = x[r, c]: the reduced axis is the contiguous one, laid out on axis 0
        tile = tl.load(x_ptr + rows[None, :] * stride_row + cols[:, None],
                       mask=(cols[:, None] < N) & (rows[None, :] < M), other=0.0)
        acc += tl.sum(tile.to(tl.float32), axis=0)
    tl.store(out_ptr + rows, acc.to(out_ptr.dtype.element_ty), mask=rows < M)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, dtype=x.dtype, device=x.device)
    sum_kernel[(triton.cdiv(M, 16),)](x, out, M, N, x.stride(0), BLOCK_M=16, BLOCK_N=256)
    return out
