"""zstd HUF_compress4X: bit position of every literal's code in its stream, and each stream's length."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _huf4x_bit_offsets(lit, nbits, bitpos, stream_bits, L, seg, BLOCK: tl.constexpr):
    sid = tl.program_id(0)  # block * 4 + stream
    t = tl.program_id(1)    # tile of the stream
    blk = sid // 4
    start = (sid % 4) * seg
    length = tl.minimum(seg, L - start)
    src = lit + blk * L + start
    codes = nbits + blk * 256
    # The stream is emitted last literal first: count the bits of every tile after this one.
    after = 0
    for u in range(t + 1, tl.cdiv(length, BLOCK)):
        offs = u * BLOCK + tl.arange(0, BLOCK)
        ok = offs < length
        sym = tl.load(src + offs, mask=ok, other=0).to(tl.int32)
        after += tl.sum(tl.load(codes + sym, mask=ok, other=0).to(tl.int32), axis=0)
    offs = t * BLOCK + tl.arange(0, BLOCK)
    ok = offs < length
    sym = tl.load(src + offs, mask=ok, other=0).to(tl.int32)
    bits = tl.load(codes + sym, mask=ok, other=0).to(tl.int32)
    tile_bits = tl.sum(bits, axis=0)
    tl.store(bitpos + blk * L + start + offs, after + tile_bits - tl.cumsum(bits, axis=0), mask=ok)
    if t == 0:
        tl.store(stream_bits + sid, after + tile_bits)


def run(lit: torch.Tensor, nbits: torch.Tensor) -> tuple:
    n_blocks, L = lit.shape
    seg = (L + 3) // 4
    bitpos = torch.empty((n_blocks, L), device=lit.device, dtype=torch.int32)
    stream_bits = torch.empty((n_blocks, 4), device=lit.device, dtype=torch.int32)
    grid = (n_blocks * 4, triton.cdiv(seg, BLOCK))
    _huf4x_bit_offsets[grid](lit, nbits, bitpos, stream_bits, L, seg, BLOCK=BLOCK, num_warps=4)
    return bitpos, stream_bits
