"""Merge two shards' sorted top-k lists per query by rank: each entry's output slot is its index plus
the number of entries of the other list that precede it."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _merge_topk(dist_a, label_a, dist_b, label_b, out_dist, out_label, K,
                BLOCK: tl.constexpr, STEPS: tl.constexpr):
    q = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = i < K
    row = q * K
    a = tl.load(dist_a + row + i, mask=ok, other=float("inf"))
    b = tl.load(dist_b + row + i, mask=ok, other=float("inf"))
    # lower bound of a in row B (entries < a), upper bound of b in row A (entries <= b)
    lo_a = tl.zeros([BLOCK], dtype=tl.int32)
    hi_a = tl.zeros([BLOCK], dtype=tl.int32) + K
    lo_b = tl.zeros([BLOCK], dtype=tl.int32)
    hi_b = tl.zeros([BLOCK], dtype=tl.int32) + K
    for _ in range(STEPS):
        live_a = ok & (lo_a < hi_a)
        mid_a = (lo_a + hi_a) >> 1
        go_a = tl.load(dist_b + row + mid_a, mask=live_a, other=0.0) < a
        lo_a = tl.where(live_a & go_a, mid_a + 1, lo_a)
        hi_a = tl.where(live_a & ~go_a, mid_a, hi_a)
        live_b = ok & (lo_b < hi_b)
        mid_b = (lo_b + hi_b) >> 1
        go_b = tl.load(dist_a + row + mid_b, mask=live_b, other=0.0) <= b
        lo_b = tl.where(live_b & go_b, mid_b + 1, lo_b)
        hi_b = tl.where(live_b & ~go_b, mid_b, hi_b)
    rank_a = i + lo_a
    rank_b = i + lo_b
    keep_a = ok & (rank_a < K)
    keep_b = ok & (rank_b < K)
    tl.store(out_dist + row + rank_a, a, mask=keep_a)
    tl.store(out_label + row + rank_a, tl.load(label_a + row + i, mask=keep_a, other=0), mask=keep_a)
    tl.store(out_dist + row + rank_b, b, mask=keep_b)
    tl.store(out_label + row + rank_b, tl.load(label_b + row + i, mask=keep_b, other=0), mask=keep_b)


def run(dist_a, label_a, dist_b, label_b):
    q, k = dist_a.shape
    out_dist = torch.empty(q, k, device=dist_a.device, dtype=dist_a.dtype)
    out_label = torch.empty(q, k, device=dist_a.device, dtype=label_a.dtype)
    _merge_topk[(q, triton.cdiv(k, BLOCK))](dist_a, label_a, dist_b, label_b, out_dist, out_label, k,
                                            BLOCK=BLOCK, STEPS=k.bit_length(), num_warps=4)
    return out_dist, out_label
