"""Row cumsum scanned across rows: each program loads a [64, 128] block of 64 rows, transposes
it on chip and scans along axis 0, so every scan step is one 64-lane vector add; a carry row
links the 128-column chunks."""
import torch
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, M, N, stride_row, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    carry = tl.zeros([BLOCK_M], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * stride_row + cols[None, :]
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        xt = tl.trans(x)                       # [BLOCK_N, BLOCK_M]: the scan axis leads
        yt = tl.cumsum(xt, axis=0) + carry[None, :]
        carry = tl.sum(xt, axis=0) + carry
        tl.store(out_ptr + offs, tl.trans(yt).to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    cumsum_kernel[(triton.cdiv(M, 64),)](x, out, M, N, x.stride(0), BLOCK_M=64, BLOCK_N=128)
    return out
