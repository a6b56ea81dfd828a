"""Merge two shards' sorted top-k lists per query by rank: each entry's output slot is its index plus
the number of entries of the other list that precede it."""
import torch
import triton
import triton.language as tl

BLOCK = 128
CHUNK = 64


@triton.jit
def _merge_topk(dist_a, label_a, dist_b, label_b, out_dist, out_label, K,
                BLOCK: tl.constexpr, CHUNK: tl.constexpr):
    q = tl.program_id(0)
    i = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    ok = i < K
    row = q * K
    a = tl.load(dist_a + row + i, mask=ok, other=float("inf"))
    b = tl.load(dist_b + row + i, mask=ok, other=float("inf"))
    rank_a = i
    rank_b = i
    for start in range(0, K, CHUNK):
        j = start + tl.arange(0, CHUNK)
        j_ok = j < K
        other_b = tl.load(dist_b + row + j, mask=j_ok, other=float("inf"))
        other_a = tl.load(dist_a + row + j, mask=j_ok, other=float("inf"))
        rank_a += tl.sum((other_b[None, :] < a[:, None]).to(tl.int32), axis=1)
        rank_b += tl.sum(((other_a[None, :] <= b[:, None]) & j_ok[None, :]).to(tl.int32), axis=1)
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
                                            BLOCK=BLOCK, CHUNK=CHUNK, num_warps=4)
    return out_dist, out_label
