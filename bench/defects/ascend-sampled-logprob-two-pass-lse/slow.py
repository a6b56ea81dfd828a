"""Sampled-token log-probs on triton-ascend: per row, a max pass and then a sum-of-exponentials pass."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 48  # Atlas A2 (910B)


@triton.jit
def _row_max(row_ptr, V, BLOCK: tl.constexpr):
    m = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = tl.maximum(m, tl.load(row_ptr + cols, mask=cols < V, other=float("-inf")))
    return tl.max(m, axis=0)


@triton.jit
def _row_sum_exp(row_ptr, V, row_max, BLOCK: tl.constexpr):
    s = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, V, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        s += tl.exp(tl.load(row_ptr + cols, mask=cols < V, other=float("-inf")) - row_max)
    return tl.sum(s, axis=0)


@triton.jit
def sampled_logprob_kernel(logits_ptr, ids_ptr, out_ptr, T, V, BLOCK: tl.constexpr):
    for row in range(tl.program_id(0), T, tl.num_programs(0)):
        row_ptr = logits_ptr + row * V
        row_max = _row_max(row_ptr, V, BLOCK)
        lse = row_max + tl.log(_row_sum_exp(row_ptr, V, row_max, BLOCK))
        tl.store(out_ptr + row, tl.load(row_ptr + tl.load(ids_ptr + row)) - lse)


def run(logits: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    T, V = logits.shape
    out = torch.empty(T, dtype=torch.float32, device=logits.device)
    sampled_logprob_kernel[(min(NUM_VECTOR_CORES, T),)](logits, ids, out, T, V, BLOCK=8192)
    return out
