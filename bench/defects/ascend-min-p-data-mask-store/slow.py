"""Min-p filter ported from the in-place sampler kernel: copy the row, then store -inf under a
mask computed from the logits themselves."""
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
        tl.store(out_ptr + base + cols, x, mask=inb)
        tl.store(out_ptr + base + cols, float("-inf"), mask=inb & (x < cut))


def run(logits: torch.Tensor, min_p: float) -> torch.Tensor:
    B, V = logits.shape
    out = torch.empty_like(logits)
    min_p_kernel[(B,)](logits, out, V, math.log(min_p), BLOCK=4096)
    return out
