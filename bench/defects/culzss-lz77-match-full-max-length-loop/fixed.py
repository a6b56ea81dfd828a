"""LZ77 longest-match search over a sliding window: one program per (128-position tile, chunk)."""
import torch
import triton
import triton.language as tl

MIN_MATCH = tl.constexpr(3)


@triton.jit
def _match_finder(src, lengths, out_len, out_dist, S, window, max_match, BLOCK: tl.constexpr):
    chunk = tl.program_id(1)
    pos = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    n = tl.load(lengths + chunk)
    row = src + chunk.to(tl.int64) * S
    valid = pos < n
    best_len = tl.zeros([BLOCK], dtype=tl.int32)
    best_dist = tl.zeros([BLOCK], dtype=tl.int32)
    for d in range(1, window + 1):
        alive = valid & (pos >= d)
        length = tl.zeros([BLOCK], dtype=tl.int32)
        live = tl.max(alive.to(tl.int32), axis=0)
        t = 0
        while (t < max_match) & (live > 0):
            cur = pos + t
            alive = alive & (cur < n)
            a = tl.load(row + cur, mask=alive, other=0)
            b = tl.load(row + cur - d, mask=alive, other=0)
            alive = alive & (a == b)
            length += alive.to(tl.int32)
            live = tl.max(alive.to(tl.int32), axis=0)
            t += 1
        better = length > best_len
        best_len = tl.where(better, length, best_len)
        best_dist = tl.where(better, d, best_dist)
    literal = best_len < MIN_MATCH
    out = chunk.to(tl.int64) * S + pos
    tl.store(out_len + out, tl.where(literal, 0, best_len), mask=pos < S)
    tl.store(out_dist + out, tl.where(literal, 0, best_dist), mask=pos < S)


def run(data: torch.Tensor, lengths: torch.Tensor, window: int, max_match: int):
    C, S = data.shape
    out_len = torch.empty((C, S), device=data.device, dtype=torch.int32)
    out_dist = torch.empty((C, S), device=data.device, dtype=torch.int32)
    BLOCK = 128
    grid = (triton.cdiv(S, BLOCK), C)
    _match_finder[grid](data, lengths, out_len, out_dist, S, window, max_match, BLOCK=BLOCK, num_warps=4)
    return out_len, out_dist
