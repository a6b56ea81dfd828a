"""Speculative-decoding recovered tokens: grid (request, draft position), one streaming pass per row."""
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
def _first_argmax(best_val, best_idx, vocab_size):
    top = tl.max(best_val, axis=0)
    return tl.min(tl.where(best_val == top, best_idx, vocab_size), axis=0)


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

    best_val = tl.full([BLOCK_V], float("-inf"), tl.float32)
    best_idx = tl.zeros([BLOCK_V], tl.int32)
    for v0 in range(0, vocab_size, BLOCK_V):
        offs = v0 + tl.arange(0, BLOCK_V)
        score = _residual_over_noise(target_row, draft_row, q_row, offs, vocab_size)
        take = score > best_val
        best_val = tl.where(take, score, best_val)
        best_idx = tl.where(take, offs, best_idx)
    tl.store(out_ptr + tok, _first_argmax(best_val, best_idx, vocab_size))


def run(cu_num_draft_tokens: torch.Tensor, draft_probs: torch.Tensor, target_probs: torch.Tensor,
        q: torch.Tensor, max_spec_len: int) -> torch.Tensor:
    num_tokens, vocab_size = target_probs.shape
    batch_size = cu_num_draft_tokens.shape[0]
    out = torch.empty(num_tokens, dtype=torch.int32, device=target_probs.device)
    launch = {"BLOCK_V": min(8192, triton.next_power_of_2(vocab_size)), "num_warps": 8}
    sample_recovered_tokens_kernel[(batch_size, max_spec_len)](
        out, cu_num_draft_tokens, draft_probs, target_probs, q, vocab_size, **launch)
    return out
