"""Correct but unusual (sum): fp32 partial sums over 64-column chunks, then an fp64 finishing pass."""
import torch
import triton
import triton.language as tl


@triton.jit
def partial_sums(x_ptr, p_ptr, N, stride_x, CHUNKS, BLOCK: tl.constexpr):
    row, chunk = tl.program_id(0), tl.program_id(1)
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(p_ptr + row * CHUNKS + chunk, tl.sum(x, axis=0).to(tl.float64))


@triton.jit
def finish(p_ptr, out_ptr, CHUNKS, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    parts = tl.load(p_ptr + row * CHUNKS + offs, mask=offs < CHUNKS, other=0.0)
    tl.store(out_ptr + row, tl.sum(parts, axis=0).to(out_ptr.dtype.element_ty))


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    chunks = triton.cdiv(N, 64)
    partial = torch.empty((M, chunks), dtype=torch.float64, device=x.device)
    partial_sums[(M, chunks)](x, partial, N, x.stride(0), chunks, BLOCK=64)
    out = torch.empty((M,), dtype=x.dtype, device=x.device)
    finish[(M,)](partial, out, chunks, BLOCK=triton.next_power_of_2(chunks))
    return out
