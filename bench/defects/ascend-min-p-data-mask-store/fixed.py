"""Min-p filter with the cut applied by tl.where: one store per chunk under the bounds mask."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def min_p_kernel(logits_ptr, out_ptr, V, log_min_p, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * V
    mx = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + base + cols, mask=cols < V, other=float("-inf"))
        mx = tl.maximum(mx, x)
    cut = tl.max(mx, axis=0) + log_min_p
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inb = cols < V
        x = tl.load(logits_ptr + base + cols, mask=inb, other=0.0)
        tl.store(out_ptr + base + cols, tl.where(x < cut, float("-inf"), x), mask=inb)


def run(logits: torch.Tensor, min_p: float) -> torch.Tensor:
    B, V = logits.shape
    out = torch.empty_like(logits)
    min_p_kernel[(B,)](logits, out, V, math.log(min_p), BLOCK=4096)
    return out
