"""Hashed feature crossing (NVTabular HashedCross): murmur3_32 per column, XOR, modulo the bucket count."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
BLOCK = 1024


@triton.jit
def _murmur3_32(key):
    """MurmurHash3_x86_32 (seed 0) of one 4-byte block, on uint32 lanes."""
    k = key * 0xCC9E2D51
    k = (k << 15) | (k >> 17)
    k = k * 0x1B873593
    h = (k << 13) | (k >> 19)
    h = h * 5 + 0xE6546B64
    h = h ^ 4
    h = h ^ (h >> 16)
    h = h * 0x85EBCA6B
    h = h ^ (h >> 13)
    h = h * 0xC2B2AE35
    return h ^ (h >> 16)


@triton.jit
def _hashed_cross_kernel(cats, pairs, out, p, B, NUM_BUCKETS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    col_a = cats + tl.load(pairs + 2 * p) * B
    col_b = cats + tl.load(pairs + 2 * p + 1) * B
    dst = out + p * B
    for start in range(pid * BLOCK, B, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < B
        a = tl.load(col_a + offs, mask=mask, other=0).to(tl.uint32, bitcast=True)
        b = tl.load(col_b + offs, mask=mask, other=0).to(tl.uint32, bitcast=True)
        bucket = (_murmur3_32(a) ^ _murmur3_32(b)) % NUM_BUCKETS
        tl.store(dst + offs, bucket.to(tl.int32, bitcast=True), mask=mask)


def run(cats: torch.Tensor, pairs: torch.Tensor, num_buckets: int) -> torch.Tensor:
    F, B = cats.shape
    P = pairs.shape[0]
    out = torch.empty((P, B), device=cats.device, dtype=torch.int32)
    grid = (min(_VECTOR_CORES, triton.cdiv(B, BLOCK)),)
    for p in range(P):  # one crossed column at a time, as the dataframe op builds them
        _hashed_cross_kernel[grid](cats, pairs, out, p, B, NUM_BUCKETS=num_buckets, BLOCK=BLOCK)
    return out
