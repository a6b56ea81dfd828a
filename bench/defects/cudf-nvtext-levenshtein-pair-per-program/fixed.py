"""Levenshtein distance of string pairs, Myers / Hyyro bit-parallel (strings of at most 64 bytes)."""
import torch
import triton
import triton.language as tl

ALL_ONES = tl.constexpr(0xFFFFFFFFFFFFFFFF)
BYTE_ONES = tl.constexpr(0x0101010101010101)
LOW7 = tl.constexpr(0x7F7F7F7F7F7F7F7F)
HIGH = tl.constexpr(0x8080808080808080)
GATHER = tl.constexpr(0x0102040810204080)


@triton.jit
def _pack8(chars, start, m, w: tl.constexpr):
    """Bytes 8w .. 8w+7 of each lane's string as one little-endian uint64."""
    word = tl.zeros(start.shape, tl.uint64)
    for k in tl.static_range(8):
        byte = tl.load(chars + start + (8 * w + k), mask=(8 * w + k) < m, other=0)
        word = word | (byte.to(tl.uint64) << (8 * k))
    return word


@triton.jit
def _match8(word, cc, w: tl.constexpr):
    """Bits 8w .. 8w+7: which bytes of word equal the byte broadcast in cc."""
    x = word ^ cc
    nonzero = ((x & LOW7) + LOW7) | x
    zero = (nonzero & HIGH) ^ HIGH
    return (((zero >> 7) * GATHER) >> 56) << (8 * w)


@triton.jit
def _edit_distance_kernel(a_chars, a_offsets, b_chars, b_offsets, out, N, BLOCK: tl.constexpr):
    pair = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = pair < N
    a_start = tl.load(a_offsets + pair, mask=live, other=0)
    m = tl.load(a_offsets + pair + 1, mask=live, other=0) - a_start
    b_start = tl.load(b_offsets + pair, mask=live, other=0)
    n = tl.load(b_offsets + pair + 1, mask=live, other=0) - b_start
    a0 = _pack8(a_chars, a_start, m, 0)
    a1 = _pack8(a_chars, a_start, m, 1)
    a2 = _pack8(a_chars, a_start, m, 2)
    a3 = _pack8(a_chars, a_start, m, 3)
    a4 = _pack8(a_chars, a_start, m, 4)
    a5 = _pack8(a_chars, a_start, m, 5)
    a6 = _pack8(a_chars, a_start, m, 6)
    a7 = _pack8(a_chars, a_start, m, 7)
    top = tl.full([BLOCK], 1, tl.uint64) << (tl.maximum(m, 1) - 1).to(tl.uint64)
    vp = tl.full([BLOCK], ALL_ONES, tl.uint64)
    vn = tl.zeros([BLOCK], tl.uint64)
    dist = m
    for j in range(0, tl.max(n, axis=0)):
        step = j < n
        cc = tl.load(b_chars + b_start + j, mask=step, other=0).to(tl.uint64) * BYTE_ONES
        eq = (_match8(a0, cc, 0) | _match8(a1, cc, 1) | _match8(a2, cc, 2) | _match8(a3, cc, 3)
              | _match8(a4, cc, 4) | _match8(a5, cc, 5) | _match8(a6, cc, 6) | _match8(a7, cc, 7))
        d0 = (((eq & vp) + vp) ^ vp) | eq | vn
        hp = vn | ((d0 | vp) ^ ALL_ONES)
        hn = vp & d0
        delta = ((hp & top) != 0).to(tl.int32) - ((hn & top) != 0).to(tl.int32)
        dist += tl.where(step, delta, 0)
        hp = (hp << 1) | 1
        hn = hn << 1
        vp = tl.where(step, hn | ((d0 | hp) ^ ALL_ONES), vp)
        vn = tl.where(step, hp & d0, vn)
    dist = tl.where(m == 0, n, dist)
    tl.store(out + pair, dist, mask=live)


def run(a_chars, a_offsets, b_chars, b_offsets):
    N = a_offsets.numel() - 1
    out = torch.empty(N, device=a_chars.device, dtype=torch.int32)
    BLOCK = 128
    _edit_distance_kernel[(triton.cdiv(N, BLOCK),)](a_chars, a_offsets, b_chars, b_offsets, out, N,
                                                    BLOCK=BLOCK, num_warps=4)
    return out
