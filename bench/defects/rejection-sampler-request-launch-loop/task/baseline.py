"""Rejection sampler for speculative decoding: recovered tokens and the accept walk, each one launch over the batch."""
import torch
import triton
import triton.language as tl


@triton.jit
def recovered_tokens_kernel(draft_probs_ptr, target_probs_ptr, q_ptr, recovered_ptr, K, V, BLOCK_V: tl.constexpr):
    req = tl.program_id(0)
    pos = tl.program_id(1)
    row = (req * K + pos).to(tl.int64) * V
    best = -1.0
    best_id = 0
    for start in range(0, V, BLOCK_V):
        v = start + tl.arange(0, BLOCK_V)
        m = v < V
        p_t = tl.load(target_probs_ptr + row + v, mask=m, other=0.0)
        p_d = tl.load(draft_probs_ptr + row + v, mask=m, other=0.0)
        q = tl.load(q_ptr + req.to(tl.int64) * V + v, mask=m, other=1.0)
        score = tl.where(m, tl.maximum(p_t - p_d, 0.0) / q, -1.0)
        block_best, block_id = tl.max(score, axis=0, return_indices=True, return_indices_tie_break_left=True)
        take = block_best > best
        best_id = tl.where(take, start + block_id, best_id)
        best = tl.where(take, block_best, best)
    tl.store(recovered_ptr + req * K + pos, best_id)


@triton.jit
def accept_kernel(draft_ids_ptr, draft_probs_ptr, target_probs_ptr, recovered_ptr, bonus_ptr, uniform_ptr, out_ptr,
                  V, K: tl.constexpr):
    req = tl.program_id(0)
    rejected = 0
    for j in tl.static_range(K):
        tok = tl.load(draft_ids_ptr + req * K + j)
        row = (req * K + j).to(tl.int64) * V
        p_d = tl.load(draft_probs_ptr + row + tok)
        p_t = tl.load(target_probs_ptr + row + tok)
        accept = (p_d > 0) & (p_t / p_d >= tl.load(uniform_ptr + req * K + j))
        token = tl.where(accept, tok, tl.load(recovered_ptr + req * K + j))
        tl.store(out_ptr + req * (K + 1) + j, tl.where(rejected == 0, token, -1))
        rejected = rejected | (~accept).to(tl.int32)
    tl.store(out_ptr + req * (K + 1) + K, tl.where(rejected == 0, tl.load(bonus_ptr + req), -1))


def run(draft_ids, draft_probs, target_probs, bonus_ids, uniform, q) -> torch.Tensor:
    B, K, V = draft_probs.shape
    out = torch.empty((B, K + 1), dtype=torch.int64, device=draft_ids.device)
    recovered = torch.empty((B, K), dtype=torch.int64, device=draft_ids.device)
    recovered_tokens_kernel[(B, K)](draft_probs, target_probs, q, recovered, K, V, BLOCK_V=4096, num_warps=8)
    accept_kernel[(B,)](draft_ids, draft_probs, target_probs, recovered, bonus_ids, uniform, out, V, K=K, num_warps=1)
    return out
