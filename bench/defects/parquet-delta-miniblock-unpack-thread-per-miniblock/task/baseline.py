"""Parquet DELTA_BINARY_PACKED miniblock unpack: 32-value miniblocks, each with its own bit width, and a min_delta per block."""
import torch
import triton
import triton.language as tl

VALUES_PER_MINIBLOCK = tl.constexpr(32)
MINIBLOCKS_PER_BLOCK = tl.constexpr(4)


@triton.jit
def _unpack_miniblocks(words, widths, offsets, min_delta, out, n_miniblocks, BLOCK_MB: tl.constexpr):
    mb = tl.program_id(0) * BLOCK_MB + tl.arange(0, BLOCK_MB)
    valid = mb < n_miniblocks
    b = tl.load(widths + mb, mask=valid, other=0).to(tl.int32)
    first = tl.load(offsets + mb, mask=valid, other=0)
    base = tl.load(min_delta + mb // MINIBLOCKS_PER_BLOCK, mask=valid, other=0)
    keep = tl.full([BLOCK_MB], 0xFFFFFFFF, tl.uint32) >> ((32 - b) & 31).to(tl.uint32)
    t = tl.arange(0, VALUES_PER_MINIBLOCK)[None, :]
    b2, valid2 = b[:, None], valid[:, None]
    bit = t * b2
    shift = bit & 31
    word = first[:, None] + (bit >> 5)
    lo = tl.load(words + word, mask=valid2 & (b2 > 0), other=0).to(tl.uint32, bitcast=True)
    spill = valid2 & (shift + b2 > 32)
    hi = tl.load(words + word + 1, mask=spill, other=0).to(tl.uint32, bitcast=True)
    z = (lo >> shift.to(tl.uint32)) | tl.where(spill, hi << ((32 - shift) & 31).to(tl.uint32), 0)
    z = tl.where(b2 > 0, z & keep[:, None], 0)
    dst = out + mb[:, None] * VALUES_PER_MINIBLOCK + t
    tl.store(dst, base[:, None] + z.to(tl.int32, bitcast=True), mask=valid2)


def run(words: torch.Tensor, widths: torch.Tensor, offsets: torch.Tensor, min_delta: torch.Tensor) -> torch.Tensor:
    M = widths.numel()
    out = torch.empty(M * 32, device=words.device, dtype=torch.int32)
    BLOCK_MB = 32
    _unpack_miniblocks[(triton.cdiv(M, BLOCK_MB),)](words, widths, offsets, min_delta, out, M,
                                                    BLOCK_MB=BLOCK_MB, num_warps=4)
    return out
