"""pytorch-crf Viterbi decode: one program per sentence, max-plus steps, int8 backpointers, in-kernel backtrace."""
import torch
import triton
import triton.language as tl


@triton.jit
def _crf_viterbi(emis, lengths, start, end, trans, backptr, tags, best_score, T, K,
                 BLOCK_K: tl.constexpr, BLOCK_T: tl.constexpr):
    b = tl.program_id(0)
    n = tl.load(lengths + b)
    tag = tl.arange(0, BLOCK_K)
    tag_ok = tag < K
    trans_tile = tl.load(trans + tag[:, None] * K + tag[None, :], mask=tag_ok[:, None] & tag_ok[None, :],
                         other=-float("inf"))
    sent = emis + b.to(tl.int64) * T * K
    bp = backptr + b.to(tl.int64) * T * K
    score = tl.load(start + tag, mask=tag_ok, other=-float("inf")) + tl.load(sent + tag, mask=tag_ok, other=0.0)
    for t in range(1, n):
        best, idx = tl.max(score[:, None] + trans_tile, axis=0, return_indices=True)
        tl.store(bp + t * K + tag, idx.to(tl.int8), mask=tag_ok)
        score = best + tl.load(sent + t * K + tag, mask=tag_ok, other=0.0)
    final, last = tl.max(score + tl.load(end + tag, mask=tag_ok, other=-float("inf")), axis=0,
                         return_indices=True)
    tl.store(best_score + b, final)
    row = tags + b.to(tl.int64) * T
    tl.store(row + n - 1, last)
    tl.debug_barrier()
    cur = last
    for k in range(1, n):
        t = n - k
        cur = tl.load(bp + t * K + cur).to(tl.int32)
        tl.store(row + t - 1, cur)
    for t0 in range(0, T, BLOCK_T):
        pos = t0 + tl.arange(0, BLOCK_T)
        tl.store(row + pos, tl.zeros([BLOCK_T], dtype=tl.int32), mask=(pos >= n) & (pos < T))


def run(emissions, lengths, start, end, transitions):
    B, T, K = emissions.shape
    tags = torch.empty(B, T, device=emissions.device, dtype=torch.int32)
    best_score = torch.empty(B, device=emissions.device, dtype=torch.float32)
    backptr = torch.empty(B, T, K, device=emissions.device, dtype=torch.int8)
    _crf_viterbi[(B,)](emissions, lengths, start, end, transitions, backptr, tags, best_score, T, K,
                       BLOCK_K=triton.next_power_of_2(K), BLOCK_T=128, num_warps=1)
    return tags, best_score
