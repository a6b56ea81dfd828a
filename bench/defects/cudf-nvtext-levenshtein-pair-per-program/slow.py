"""Levenshtein distance of string pairs, Myers / Hyyro bit-parallel (strings of at most 64 bytes)."""
import torch
import triton
import triton.language as tl

ALL_ONES = tl.constexpr(0xFFFFFFFFFFFFFFFF)


@triton.jit
def _edit_distance_kernel(a_chars, a_offsets, b_chars, b_offsets, out, MAX_LEN: tl.constexpr):
    pair = tl.program_id(0)
    a_start = tl.load(a_offsets + pair)
    m = tl.load(a_offsets + pair + 1) - a_start
    b_start = tl.load(b_offsets + pair)
    n = tl.load(b_offsets + pair + 1) - b_start
    col = tl.arange(0, MAX_LEN)
    a = tl.load(a_chars + a_start + col, mask=col < m, other=0).to(tl.int32)
    a = tl.where(col < m, a, -1)
    bit = tl.full([MAX_LEN], 1, tl.uint64) << col.to(tl.uint64)
    top = tl.full([], 1, tl.uint64) << (tl.maximum(m, 1) - 1).to(tl.uint64)
    vp = tl.full([], ALL_ONES, tl.uint64)
    vn = tl.zeros([], tl.uint64)
    dist = m
    for j in range(0, n):
        c = tl.load(b_chars + b_start + j).to(tl.int32)
        eq = tl.sum(tl.where(a == c, bit, 0), axis=0)
        d0 = (((eq & vp) + vp) ^ vp) | eq | vn
        hp = vn | ((d0 | vp) ^ ALL_ONES)
        hn = vp & d0
        dist += ((hp & top) != 0).to(tl.int32) - ((hn & top) != 0).to(tl.int32)
        hp = (hp << 1) | 1
        hn = hn << 1
        vp = hn | ((d0 | hp) ^ ALL_ONES)
        vn = hp & d0
    dist = tl.where(m == 0, n, dist)
    tl.store(out + pair, dist)


def run(a_chars, a_offsets, b_chars, b_offsets):
    N = a_offsets.numel() - 1
    out = torch.empty(N, device=a_chars.device, dtype=torch.int32)
    _edit_distance_kernel[(N,)](a_chars, a_offsets, b_chars, b_offsets, out, MAX_LEN=64, num_warps=2)
    return out
