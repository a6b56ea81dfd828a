"""BLAST ungapped X-drop extension: one lane per word hit, left then right extension along the diagonal."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _ungapped_extend(query, subjects, subj_start, subj_len, hit_subj, hit_q, hit_s, blosum,
                     out_score, out_qstart, out_len, n_hits, query_len, dropoff, BLOCK: tl.constexpr):
    hit = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = hit < n_hits
    sid = tl.load(hit_subj + hit, mask=ok, other=0)
    q_off = tl.load(hit_q + hit, mask=ok, other=0)
    s_off = tl.load(hit_s + hit, mask=ok, other=0)
    s_len = tl.load(subj_len + sid, mask=ok, other=0)
    q_ptr = query + q_off
    s_ptr = subjects + tl.load(subj_start + sid, mask=ok, other=0) + s_off

    # left extension, backwards from the hit's last word residue (inclusive)
    n_left = tl.where(ok, tl.minimum(q_off, s_off) + 1, 0)
    score = tl.zeros([BLOCK], dtype=tl.int32)
    best = tl.zeros([BLOCK], dtype=tl.int32)
    best_t = tl.full([BLOCK], -1, dtype=tl.int32)
    alive = n_left > 0
    t = 0
    while tl.max(alive.to(tl.int32), axis=0) > 0:
        a = tl.load(q_ptr - t, mask=alive, other=0).to(tl.int32)
        b = tl.load(s_ptr - t, mask=alive, other=0).to(tl.int32)
        score = tl.where(alive, score + tl.load(blosum + a * 20 + b, mask=alive, other=0), score)
        better = alive & (score > best)
        best = tl.where(better, score, best)
        best_t = tl.where(better, t, best_t)
        alive = alive & (best - score < dropoff) & (t + 1 < n_left)
        t += 1
    left_len = best_t + 1

    # right extension, from the residue after the hit, starting at the left extension's best score
    n_right = tl.where(ok, tl.minimum(query_len - q_off - 1, s_len - s_off - 1), 0)
    score = best
    right_len = tl.zeros([BLOCK], dtype=tl.int32)
    alive = n_right > 0
    t = 0
    while tl.max(alive.to(tl.int32), axis=0) > 0:
        a = tl.load(q_ptr + 1 + t, mask=alive, other=0).to(tl.int32)
        b = tl.load(s_ptr + 1 + t, mask=alive, other=0).to(tl.int32)
        score = tl.where(alive, score + tl.load(blosum + a * 20 + b, mask=alive, other=0), score)
        better = alive & (score > best)
        best = tl.where(better, score, best)
        right_len = tl.where(better, t + 1, right_len)
        alive = alive & (score > 0) & (best - score < dropoff) & (t + 1 < n_right)
        t += 1

    tl.store(out_score + hit, best, mask=ok)
    tl.store(out_qstart + hit, q_off - left_len + 1, mask=ok)
    tl.store(out_len + hit, left_len + right_len, mask=ok)


def run(query: torch.Tensor, subjects: torch.Tensor, subj_start: torch.Tensor, subj_len: torch.Tensor,
        hit_subj: torch.Tensor, hit_q: torch.Tensor, hit_s: torch.Tensor, blosum: torch.Tensor,
        dropoff: int) -> tuple:
    n_hits = hit_q.numel()
    score = torch.empty(n_hits, device=hit_q.device, dtype=torch.int32)
    q_start = torch.empty(n_hits, device=hit_q.device, dtype=torch.int32)
    length = torch.empty(n_hits, device=hit_q.device, dtype=torch.int32)
    grid = (triton.cdiv(n_hits, BLOCK),)
    _ungapped_extend[grid](query, subjects, subj_start, subj_len, hit_subj, hit_q, hit_s, blosum,
                           score, q_start, length, n_hits, query.numel(), dropoff, BLOCK=BLOCK, num_warps=4)
    return score, q_start, length
