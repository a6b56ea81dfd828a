"""Spark-compatible hash partitioning of an INT64 key column: Murmur3 hashLong (seed 42), pmod, row counts."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
TILES = 16
SPARK_SEED = 42


@triton.jit
def _rotl32(x, r: tl.constexpr):
    return (x << r) | (x >> (32 - r))


@triton.jit
def _mix_k1(k):
    k = k * 0xCC9E2D51
    k = _rotl32(k, 15)
    return k * 0x1B873593


@triton.jit
def _mix_h1(h, k):
    h = h ^ k
    h = _rotl32(h, 13)
    return h * 5 + 0xE6546B64


@triton.jit
def _murmur3_hash_long(key, SEED: tl.constexpr):
    low = key.to(tl.uint32)
    high = (key >> 32).to(tl.uint32)
    h = tl.full(key.shape, SEED, tl.uint32)
    h = _mix_h1(h, _mix_k1(low))
    h = _mix_h1(h, _mix_k1(high))
    h = h ^ 8
    h = h ^ (h >> 16)
    h = h * 0x85EBCA6B
    h = h ^ (h >> 13)
    h = h * 0xC2B2AE35
    h = h ^ (h >> 16)
    return h.to(tl.int32, bitcast=True)


@triton.jit
def _hash_partition(keys, part, counts, n, num_parts,
                    SEED: tl.constexpr, BLOCK: tl.constexpr, TILES: tl.constexpr, PARTS_POW2: tl.constexpr):
    start = tl.program_id(0) * (BLOCK * TILES)
    hist = tl.zeros([PARTS_POW2], dtype=tl.int32)
    for t in range(TILES):
        rows = start + t * BLOCK + tl.arange(0, BLOCK)
        ok = rows < n
        key = tl.load(keys + rows, mask=ok, other=0)
        h = _murmur3_hash_long(key, SEED)
        p = h % num_parts
        p = tl.where(p < 0, p + num_parts, p)  # Spark Pmod
        tl.store(part + rows, p, mask=ok)
        hist += tl.histogram(p, PARTS_POW2, mask=ok)
    bins = tl.arange(0, PARTS_POW2)
    tl.atomic_add(counts + bins, hist, mask=bins < num_parts)


def run(keys: torch.Tensor, num_partitions: int) -> tuple:
    n = keys.shape[0]
    part = torch.empty(n, device=keys.device, dtype=torch.int32)
    counts = torch.zeros(num_partitions, device=keys.device, dtype=torch.int32)
    grid = (triton.cdiv(n, BLOCK * TILES),)
    _hash_partition[grid](keys, part, counts, n, num_partitions,
                          SEED=SPARK_SEED, BLOCK=BLOCK, TILES=TILES,
                          PARTS_POW2=triton.next_power_of_2(num_partitions), num_warps=4)
    return part, counts
