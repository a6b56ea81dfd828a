"""Baseline logits entropy: one online pass per row."""
import torch
import triton
import triton.language as tl


@triton.jit
def entropy_kernel(logits_ptr, out_ptr, V, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = logits_ptr + row.to(tl.int64) * stride
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    t = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in tl.range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(row_ptr + cols, mask=mask, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        alpha = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        p = tl.where(mask, tl.exp(x - m_new), 0.0)
        s = s * alpha + p
        t = t * alpha + p * tl.where(mask, x, 0.0)
        m = m_new
    row_max = tl.max(m, axis=0)
    w = tl.where(m == float("-inf"), 0.0, tl.exp(m - row_max))
    s_row = tl.sum(s * w, axis=0)
    t_row = tl.sum(t * w, axis=0)
    tl.store(out_ptr + row, row_max + tl.log(s_row) - t_row / s_row)


def run(logits: torch.Tensor) -> torch.Tensor:
    T, V = logits.shape
    out = torch.empty(T, dtype=torch.float32, device=logits.device)
    entropy_kernel[(T,)](logits, out, V, logits.stride(0), BLOCK=4096, num_warps=8)
    return out
