"""Baseline sampled-token log-probs: one online logsumexp pass per row."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B)


@triton.jit
def _row_logsumexp(row_ptr, V, BLOCK: tl.constexpr):
    m = float("-inf")
    s = 0.0
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(row_ptr + cols, mask=cols < V, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    return m + tl.log(s)


@triton.jit
def sampled_logprob_kernel(logits_ptr, ids_ptr, out_ptr, T, V, BLOCK: tl.constexpr):
    for row in range(tl.program_id(0), T, tl.num_programs(0)):
        row_ptr = logits_ptr + row * V
        lse = _row_logsumexp(row_ptr, V, BLOCK)
        tl.store(out_ptr + row, tl.load(row_ptr + tl.load(ids_ptr + row)) - lse)


def run(logits: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    T, V = logits.shape
    out = torch.empty(T, dtype=torch.float32, device=logits.device)
    sampled_logprob_kernel[(min(NUM_VECTOR_CORES, T),)](logits, ids, out, T, V, BLOCK=8192)
    return out
