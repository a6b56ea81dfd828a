"""Per-token entropy from logits: the row's logsumexp (max pass, sum-exp pass), then a pass for sum(p * x)."""
import torch
import triton
import triton.language as tl


@triton.jit
def _row_logsumexp(row_ptr, V, BLOCK: tl.constexpr):
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for start in tl.range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.load(row_ptr + cols, mask=cols < V, other=float("-inf")).to(tl.float32))
    row_max = tl.max(m, axis=0)
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in tl.range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(row_ptr + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
        s += tl.exp(x - row_max)
    return row_max + tl.log(tl.sum(s, axis=0))


@triton.jit
def entropy_kernel(logits_ptr, out_ptr, V, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = logits_ptr + row.to(tl.int64) * stride
    lse = _row_logsumexp(row_ptr, V, BLOCK)
    px = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in tl.range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < V
        x = tl.load(row_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        px += tl.where(mask, tl.exp(x - lse) * x, 0.0)
    tl.store(out_ptr + row, lse - tl.sum(px, axis=0))


def run(logits: torch.Tensor) -> torch.Tensor:
    T, V = logits.shape
    out = torch.empty(T, dtype=torch.float32, device=logits.device)
    entropy_kernel[(T,)](logits, out, V, logits.stride(0), BLOCK=4096, num_warps=8)
    return out
