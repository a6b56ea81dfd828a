"""Top-p filter on sorted probabilities: one program per row, 1024-wide chunks, the mass of earlier chunks carried in a running prefix."""
import torch
import triton
import triton.language as tl


@triton.jit
def top_p_filter_kernel(p_ptr, top_p_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    top_p = tl.load(top_p_ptr + row)
    base = row.to(tl.int64) * V
    prefix = 0.0
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        p = tl.load(p_ptr + base + cols, mask=mask, other=0.0)
        before = prefix + tl.cumsum(p, axis=0) - p
        tl.store(out_ptr + base + cols, tl.where(before < top_p, p, 0.0), mask=mask)
        prefix += tl.sum(p, axis=0)


def run(probs: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    B, V = probs.shape
    out = torch.empty_like(probs)
    top_p_filter_kernel[(B,)](probs, top_p, out, V, BLOCK=1024)
    return out
