"""Top-p filter on sorted probabilities: one program per row, 1024-wide chunks; each chunk sums the chunks before it for its offset."""
import torch
import triton
import triton.language as tl


@triton.jit
def top_p_filter_kernel(p_ptr, top_p_ptr, out_ptr, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    top_p = tl.load(top_p_ptr + row)
    base = row.to(tl.int64) * V
    for start in range(0, V, BLOCK):
        # probability mass of everything before this chunk
        prefix = 0.0
        for prev in range(0, start, BLOCK):
            prev_cols = prev + tl.arange(0, BLOCK)
            prefix += tl.sum(tl.load(p_ptr + base + prev_cols, mask=prev_cols < V, other=0.0), axis=0)
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        p = tl.load(p_ptr + base + cols, mask=mask, other=0.0)
        before = prefix + tl.cumsum(p, axis=0) - p
        tl.store(out_ptr + base + cols, tl.where(before < top_p, p, 0.0), mask=mask)


def run(probs: torch.Tensor, top_p: torch.Tensor) -> torch.Tensor:
    B, V = probs.shape
    out = torch.empty_like(probs)
    top_p_filter_kernel[(B,)](probs, top_p, out, V, BLOCK=1024)
    return out
