"""zstd HUF_compress4X: bit position of every literal's code in its stream, and each stream's length."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _huf4x_bit_offsets(lit, nbits, bitpos, stream_bits, L, seg, BLOCK: tl.constexpr):
    sid = tl.program_id(0)  # block * 4 + stream
    blk = sid // 4
    start = (sid % 4) * seg
    length = tl.minimum(seg, L - start)
    src = lit + blk * L + start
    codes = nbits + blk * 256
    # The stream is emitted last literal first: walk its tiles backwards, carrying the bits after them.
    after = 0
    n_tiles = tl.cdiv(length, BLOCK)
    for i in range(0, n_tiles):
        t = n_tiles - 1 - i
        offs = t * BLOCK + tl.arange(0, BLOCK)
        ok = offs < length
        sym = tl.load(src + offs, mask=ok, other=0).to(tl.int32)
        bits = tl.load(codes + sym, mask=ok, other=0).to(tl.int32)
        tile_bits = tl.sum(bits, axis=0)
        tl.store(bitpos + blk * L + start + offs, after + tile_bits - tl.cumsum(bits, axis=0), mask=ok)
        after += tile_bits
    tl.store(stream_bits + sid, after)


def run(lit: torch.Tensor, nbits: torch.Tensor) -> tuple:
    n_blocks, L = lit.shape
    seg = (L + 3) // 4
    bitpos = torch.empty((n_blocks, L), device=lit.device, dtype=torch.int32)
    stream_bits = torch.empty((n_blocks, 4), device=lit.device, dtype=torch.int32)
    grid = (n_blocks * 4,)
    _huf4x_bit_offsets[grid](lit, nbits, bitpos, stream_bits, L, seg, BLOCK=BLOCK, num_warps=4)
    return bitpos, stream_bits
