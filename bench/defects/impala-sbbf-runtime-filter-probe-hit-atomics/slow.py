"""Split-block Bloom filter probe: per-row pass mask and pass count for a runtime join filter."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _salt(lane):
    lane = lane.to(tl.int64)
    s = (lane == 0) * 0x47B6137B + (lane == 1) * 0x44974D91 + (lane == 2) * 0x8824AD5B + (lane == 3) * 0xA2B7289D
    s += (lane == 4) * 0x705495C7 + (lane == 5) * 0x2DF1424B + (lane == 6) * 0x9EFC4947 + (lane == 7) * 0x5C6BFB31
    return s.to(tl.uint32)


@triton.jit
def _fmix64(key):
    h = key.to(tl.int64).to(tl.uint64, bitcast=True)
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCD
    h ^= h >> 33
    h *= 0xC4CEB9FE1A85EC53
    h ^= h >> 33
    return h


@triton.jit
def _sbbf_probe(filt, keys, hits, count, n, num_blocks, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    h = _fmix64(tl.load(keys + offs, mask=valid, other=0))
    block = (((h >> 32) * num_blocks.to(tl.uint64)) >> 32).to(tl.int32)
    lane = tl.arange(0, 8)
    bit = (h.to(tl.uint32)[:, None] * _salt(lane)[None, :]) >> 27
    words = tl.load(filt + block[:, None] * 8 + lane[None, :], mask=valid[:, None], other=0)
    set_bits = ((words.to(tl.uint32, bitcast=True) >> bit) & 1).to(tl.int32)
    hit = (tl.sum(set_bits, axis=1) == 8) & valid
    tl.store(hits + offs, hit, mask=valid)
    tl.atomic_add(count + tl.zeros([BLOCK], dtype=tl.int32), 1, mask=hit)


def run(filt: torch.Tensor, keys: torch.Tensor):
    n = keys.numel()
    hits = torch.empty(n, device=keys.device, dtype=torch.bool)
    count = torch.zeros(1, device=keys.device, dtype=torch.int32)
    _sbbf_probe[(triton.cdiv(n, BLOCK),)](filt, keys, hits, count, n, filt.shape[0], BLOCK=BLOCK, num_warps=8)
    return hits, count
