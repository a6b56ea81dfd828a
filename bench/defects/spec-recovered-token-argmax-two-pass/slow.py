"""Speculative-decoding recovered tokens: grid (request, draft position); the row maximum of the
residual-over-noise score, then the first vocabulary index that attains it."""
import torch
import triton
import triton.language as tl


@triton.jit
def _residual_over_noise(target_row, draft_row, q_row, offs, vocab_size):
    in_vocab = offs < vocab_size
    p_target = tl.load(target_row + offs, mask=in_vocab, other=0.0)
    p_draft = tl.load(draft_row + offs, mask=in_vocab, other=0.0)
    noise = tl.load(q_row + offs, mask=in_vocab, other=1.0)
    score = tl.maximum(p_target - p_draft, 0.0) / noise
    return tl.where(in_vocab, score, float("-inf"))


@triton.jit
def _row_max(target_row, draft_row, q_row, vocab_size, BLOCK_V: tl.constexpr):
    acc = tl.full([BLOCK_V], float("-inf"), tl.float32)
    for v0 in range(0, vocab_size, BLOCK_V):
        offs = v0 + tl.arange(0, BLOCK_V)
        acc = tl.maximum(acc, _residual_over_noise(target_row, draft_row, q_row, offs, vocab_size))
    return tl.max(acc, axis=0)


@triton.jit
def _first_index_of(target_row, draft_row, q_row, top, vocab_size, BLOCK_V: tl.constexpr):
    first = tl.full([BLOCK_V], vocab_size, tl.int32)
    for v0 in range(0, vocab_size, BLOCK_V):
        offs = v0 + tl.arange(0, BLOCK_V)
        score = _residual_over_noise(target_row, draft_row, q_row, offs, vocab_size)
        first = tl.minimum(first, tl.where(score == top, offs, vocab_size))
    return tl.min(first, axis=0)


@triton.jit
def sample_recovered_tokens_kernel(
    out_ptr, cu_num_draft_ptr, draft_probs_ptr, target_probs_ptr, q_ptr, vocab_size,
    BLOCK_V: tl.constexpr,
):
    req = tl.program_id(0)
    pos = tl.program_id(1)
    start = tl.load(cu_num_draft_ptr + req - 1, mask=req > 0, other=0)
    end = tl.load(cu_num_draft_ptr + req)
    if pos >= end - start:
        return
    tok = start + pos
    target_row = target_probs_ptr + tok.to(tl.int64) * vocab_size
    draft_row = draft_probs_ptr + tok.to(tl.int64) * vocab_size
    q_row = q_ptr + req.to(tl.int64) * vocab_size

    top = _row_max(target_row, draft_row, q_row, vocab_size, BLOCK_V)
    tl.store(out_ptr + tok, _first_index_of(target_row, draft_row, q_row, top, vocab_size, BLOCK_V))


def run(cu_num_draft_tokens: torch.Tensor, draft_probs: torch.Tensor, target_probs: torch.Tensor,
        q: torch.Tensor, max_spec_len: int) -> torch.Tensor:
    num_tokens, vocab_size = target_probs.shape
    batch_size = cu_num_draft_tokens.shape[0]
    out = torch.empty(num_tokens, dtype=torch.int32, device=target_probs.device)
    launch = {"BLOCK_V": min(8192, triton.next_power_of_2(vocab_size)), "num_warps": 8}
    sample_recovered_tokens_kernel[(batch_size, max_spec_len)](
        out, cu_num_draft_tokens, draft_probs, target_probs, q, vocab_size, **launch)
    return out
