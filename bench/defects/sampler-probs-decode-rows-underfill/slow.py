"""vLLM-style sampler probabilities: one program per request row, an online max/sum pass and a normalising pass over the vocabulary."""
import torch
import triton
import triton.language as tl


@triton.jit
def probs_kernel(logits_ptr, temp_ptr, probs_ptr, strides, V, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = logits_ptr + row * strides[0]
    p_row = probs_ptr + row * strides[1]
    inv_t = 1.0 / tl.load(temp_ptr + row)
    m = float("-inf")
    s = 0.0
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < V, other=float("-inf")) * inv_t
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < V, other=float("-inf")) * inv_t
        tl.store(p_row + cols, tl.exp(x - m) / s, mask=cols < V)


def run(logits: torch.Tensor, temps: torch.Tensor) -> torch.Tensor:
    B, V = logits.shape
    probs = torch.empty_like(logits)
    probs_kernel[(B,)](logits, temps, probs, (logits.stride(0), probs.stride(0)), V, BLOCK=4096)
    return probs
