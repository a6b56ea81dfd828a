"""Batched CRC-32 (zlib/gzip polynomial) of many chunks, one program per chunk."""
import torch
import triton
import triton.language as tl

POLY = tl.constexpr(0xEDB88320)


@triton.jit
def _gf2_mulmod(a, b):
    # a * b mod P in the reflected bit order of the CRC register (bit 31 holds x^0)
    p = (a ^ a) | (b ^ b)
    for i in tl.static_range(32):
        p ^= tl.where((a & (0x80000000 >> i)) != 0, b, 0)
        b = (b >> 1) ^ ((b & 1) * POLY)
    return p


@triton.jit
def _segment_shifts(lane, SEGS: tl.constexpr, LOG2_SEG: tl.constexpr, LOG2_SEGS: tl.constexpr):
    # x^(8 * SEG * (SEGS - 1 - lane)) mod P: moves a segment's CRC to the end of its tile
    step = tl.full([], 0x00800000, tl.uint32)
    for _ in tl.static_range(LOG2_SEG):
        step = _gf2_mulmod(step, step)
    dist = SEGS - 1 - lane
    shift = tl.full([SEGS], 0x80000000, tl.uint32)
    for bit in tl.static_range(LOG2_SEGS):
        shift = tl.where(((dist >> bit) & 1) != 0, _gf2_mulmod(shift, step), shift)
        step = _gf2_mulmod(step, step)
    return shift


@triton.jit
def _crc32_chunks(data, offsets, table, out,
                  SEG: tl.constexpr, SEGS: tl.constexpr, LOG2_SEG: tl.constexpr, LOG2_SEGS: tl.constexpr):
    chunk = tl.program_id(0)
    start = tl.load(offsets + chunk)
    n = tl.load(offsets + chunk + 1) - start
    lane = tl.arange(0, SEGS)
    shift = _segment_shifts(lane, SEGS, LOG2_SEG, LOG2_SEGS)
    TILE: tl.constexpr = SEG * SEGS
    ntiles = tl.cdiv(n, TILE)
    # leading zero bytes leave a zero-initialised CRC unchanged: pad the chunk on the left to whole tiles
    base = n - ntiles * TILE
    crc = tl.full([], 0, tl.uint32)
    for k in range(0, ntiles):
        first = base + k * TILE + lane * SEG
        c = tl.where(lane == 0, crc, 0).to(tl.uint32)
        for t in tl.static_range(SEG):
            pos = first + t
            byte = tl.load(data + start + pos, mask=pos >= 0, other=0).to(tl.uint32)
            # the 0xFFFFFFFF initial register is the same as complementing the first four bytes
            byte = tl.where((pos >= 0) & (pos < 4), byte ^ 0xFF, byte)
            idx = ((c ^ byte) & 0xFF).to(tl.int32)
            c = tl.load(table + idx).to(tl.uint32, bitcast=True) ^ (c >> 8)
        crc = tl.xor_sum(_gf2_mulmod(c, shift), axis=0)
    short = tl.full([], 0xFFFFFFFF, tl.uint32) >> (8 * tl.minimum(n, 3)).to(tl.uint32)
    crc = tl.where(n < 4, crc ^ short, crc)
    tl.store(out + chunk, (crc ^ 0xFFFFFFFF).to(tl.int64))


def run(data: torch.Tensor, offsets: torch.Tensor, table: torch.Tensor) -> torch.Tensor:
    chunks = offsets.numel() - 1
    out = torch.empty(chunks, device=data.device, dtype=torch.int64)
    _crc32_chunks[(chunks,)](data, offsets, table, out, SEG=16, SEGS=256, LOG2_SEG=4, LOG2_SEGS=8,
                             num_warps=4)
    return out
