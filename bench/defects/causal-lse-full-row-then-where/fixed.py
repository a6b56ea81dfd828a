"""Causal row LSE: each program stops at the chunk holding the diagonal; only that chunk needs the tl.where."""
import torch
import triton
import triton.language as tl


@triton.jit
def causal_lse_kernel(s_ptr, lse_ptr, S, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(0)          # (head, query row) flattened
    q = pid % S
    row_ptr = s_ptr + pid.to(tl.int64) * S
    m = tl.full((BLOCK,), -1e30, dtype=tl.float32)  # finite: no inf - inf in the rescale
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, q + 1, BLOCK):   # chunks past the diagonal hold only future columns
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(row_ptr + cols, mask=cols < S, other=0.0).to(tl.float32) * scale
        x = tl.where(cols <= q, x, float("-inf"))
        m_new = tl.maximum(m, x)
        acc = acc * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    m_row = tl.max(m, 0)
    total = tl.sum(acc * tl.exp(m - m_row), 0)
    tl.store(lse_ptr + pid, m_row + tl.log(total))


def run(scores: torch.Tensor, scale: float) -> torch.Tensor:
    BH, S, _ = scores.shape
    lse = torch.empty((BH, S), dtype=torch.float32, device=scores.device)
    causal_lse_kernel[(BH * S,)](scores, lse, S, scale, BLOCK=512)
    return lse
