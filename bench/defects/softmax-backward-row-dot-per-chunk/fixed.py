"""Softmax backward on long rows: one program per row, sum(y * dy) once, then one pass writing dx."""
import torch
import triton
import triton.language as tl


@triton.jit
def _row_dot(y_row, dy_row, N, BLOCK: tl.constexpr):
    """sum(y * dy) over one row, in BLOCK-wide chunks."""
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        y = tl.load(y_row + cols, mask=mask, other=0.0)
        dy = tl.load(dy_row + cols, mask=mask, other=0.0)
        acc += y * dy
    return tl.sum(acc, axis=0)


@triton.jit
def softmax_bwd_kernel(y_ptr, dy_ptr, dx_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    y_row = y_ptr + row * N
    dy_row = dy_ptr + row * N
    dx_row = dx_ptr + row * N
    dot = _row_dot(y_row, dy_row, N, BLOCK)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        y = tl.load(y_row + cols, mask=mask, other=0.0)
        dy = tl.load(dy_row + cols, mask=mask, other=0.0)
        tl.store(dx_row + cols, y * (dy - dot), mask=mask)


def run(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    M, N = y.shape
    dx = torch.empty_like(y)
    softmax_bwd_kernel[(M,)](y, dy, dx, N, BLOCK=4096, num_warps=8)
    return dx
