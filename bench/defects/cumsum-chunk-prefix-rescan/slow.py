"""Chunked row cumsum: one program per (row, 1024-column chunk), each re-summing every earlier chunk for its offset."""
import torch
import triton
import triton.language as tl


@triton.jit
def cumsum_chunk_kernel(x_ptr, out_ptr, N, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    base = x_ptr + row * stride_row
    cols = tl.arange(0, BLOCK)
    # offset of this chunk = sum of every element before it in the row
    carry = tl.zeros((), dtype=tl.float32)
    for start in range(0, chunk * BLOCK, BLOCK):
        prev = tl.load(base + start + cols, mask=start + cols < N, other=0.0).to(tl.float32)
        carry += tl.sum(prev, axis=0)
    offs = chunk * BLOCK + cols
    mask = offs < N
    x = tl.load(base + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.cumsum(x, axis=0) + carry
    tl.store(out_ptr + row * stride_row + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    grid = (M, triton.cdiv(N, 1024))
    cumsum_chunk_kernel[grid](x, out, N, x.stride(0), BLOCK=1024)
    return out
