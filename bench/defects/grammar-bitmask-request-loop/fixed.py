"""xgrammar-style apply_token_bitmask for a decode batch: a 2-D grid of (request, 4,096-token block),
each program expanding its 128 packed int32 words."""
import torch
import triton
import triton.language as tl


@triton.jit
def bitmask_kernel(logits_ptr, mask_ptr, out_ptr, V, W, WORDS: tl.constexpr):
    req = tl.program_id(0)
    w = tl.program_id(1) * WORDS + tl.arange(0, WORDS)
    bit = tl.arange(0, 32)
    packed = tl.load(mask_ptr + req * W + w, mask=w < W, other=0)
    allow = ((packed[:, None] >> bit[None, :]) & 1) != 0
    tok = w[:, None] * 32 + bit[None, :]
    inb = tok < V
    x = tl.load(logits_ptr + req * V + tok, mask=inb)
    tl.store(out_ptr + req * V + tok, tl.where(allow, x, float("-inf")), mask=inb)


def run(logits: torch.Tensor, bitmask: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    W = bitmask.shape[1]
    out = torch.empty_like(logits)
    BLOCK = 4096                      # tokens per program
    WORDS = BLOCK // 32
    bitmask_kernel[(B, triton.cdiv(W, WORDS))](logits, bitmask, out, V, W, WORDS=WORDS, num_warps=4)
    return out
