"""Baseline softmax over dim 0: 64-column programs, tiles read along the contiguous axis."""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_dim0_kernel(x_ptr, out_ptr, N, C, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    col_ok = cols < C
    m = tl.full((BLOCK_C,), -float("inf"), dtype=tl.float32)
    s = tl.zeros((BLOCK_C,), dtype=tl.float32)
    for start in range(0, N, BLOCK_R):
        rows = start + tl.arange(0, BLOCK_R)
        mask = (rows[:, None] < N) & col_ok[None, :]
        x = tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        m_safe = tl.where(m_new == -float("inf"), 0.0, m_new)
        s = s * tl.exp(m - m_safe) + tl.sum(tl.exp(x - m_safe[None, :]), axis=0)
        m = m_new
    m_safe = tl.where(m == -float("inf"), 0.0, m)
    for start in range(0, N, BLOCK_R):
        rows = start + tl.arange(0, BLOCK_R)
        mask = (rows[:, None] < N) & col_ok[None, :]
        x = tl.load(x_ptr + rows[:, None] * C + cols[None, :], mask=mask, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - m_safe[None, :]) / s[None, :]
        tl.store(out_ptr + rows[:, None] * C + cols[None, :], y.to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    N, C = x.shape
    out = torch.empty_like(x)
    softmax_dim0_kernel[(triton.cdiv(C, 32),)](x, out, N, C, BLOCK_R=128, BLOCK_C=32)
    return out
