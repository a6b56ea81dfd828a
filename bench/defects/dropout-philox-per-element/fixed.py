"""Inverted dropout with tl.rand4x: one Philox evaluation gives the draws for four elements."""
import torch
import triton
import triton.language as tl


@triton.jit
def _apply(x_ptr, out_ptr, n, p, offs, r):
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.where(r >= p, x / (1 - p), 0.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def dropout_kernel(x_ptr, out_ptr, n, p, seed, QUARTER: tl.constexpr):
    lane = tl.arange(0, QUARTER)
    r0, r1, r2, r3 = tl.rand4x(seed, tl.program_id(0) * QUARTER + lane)
    offs = tl.program_id(0) * 4 * QUARTER + lane
    _apply(x_ptr, out_ptr, n, p, offs, r0)
    _apply(x_ptr, out_ptr, n, p, offs + QUARTER, r1)
    _apply(x_ptr, out_ptr, n, p, offs + 2 * QUARTER, r2)
    _apply(x_ptr, out_ptr, n, p, offs + 3 * QUARTER, r3)


def run(x: torch.Tensor, p: float, seed: int) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    dropout_kernel[(triton.cdiv(n, 1024),)](x, out, n, p, seed, QUARTER=256)
    return out
