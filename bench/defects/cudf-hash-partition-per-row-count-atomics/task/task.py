"""Hash partitioning of a shuffle batch (cuDF hash_partition as driven by spark-rapids GpuHashPartitioning).

Every row of an INT64 key column is hashed with Spark's Murmur3_x86_32 hashLong (seed 42: the low
32-bit word, then the high word, finalised with length 8) and sent to partition
pmod(hash, num_partitions), the signed-positive modulo of Spark's Pmod. The operator returns the
partition id of every row (int32 [N]) and the number of rows per partition (int32 [P]); the
shuffle writer then takes the exclusive scan of the counts as partition offsets and scatters rows.
"""
import torch

META = {
    "name": "hash_partition_int64",
    "level": 2,
    "category": "database",
    "dtypes": ["int64"],
    "tolerance": {"int64": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 5000, "partitions": 200},
        "ragged": {"N": 7777, "partitions": 37},
        "large": {"N": 67108864, "partitions": 200},
    },
    "baseline_notes": "One program per 16 tiles of 1024 rows (16,384 rows), 4 warps: each tile loads the keys, "
                      "hashes them with Murmur3 in uint32 arithmetic, stores the partition ids and adds a "
                      "tl.histogram of the tile into a 256-bin register histogram; one masked vector atomic per "
                      "program adds it into the global counts. No autotune.",
    "deterministic": True,
}
SPARK_SEED = 42
MAX_ORDERKEY = 6_000_000_000  # TPC-H l_orderkey range at scale factor 1000: keys use the high word too
M32 = 0xFFFFFFFF


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """A shuffle batch's key column (l_orderkey-like int64 keys [N]) and the number of partitions (int)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    keys = torch.randint(1, MAX_ORDERKEY, (s["N"],), generator=g, dtype=torch.int64)
    keys[: s["N"] // 50] *= -1  # a few negative keys, to exercise the sign of the high word
    keys = keys[torch.randperm(s["N"], generator=g)]
    return keys.to(device), s["partitions"]


def _mul32(a: torch.Tensor, c: int) -> torch.Tensor:
    """(a * c) mod 2**32 for a in [0, 2**32), without overflowing int64."""
    lo = a * (c & 0xFFFF)
    hi = ((a * (c >> 16)) & 0xFFFF) << 16
    return (lo + hi) & M32


def _rotl32(x: torch.Tensor, r: int) -> torch.Tensor:
    return ((x << r) | (x >> (32 - r))) & M32


def _mix_k1(k: torch.Tensor) -> torch.Tensor:
    return _mul32(_rotl32(_mul32(k, 0xCC9E2D51), 15), 0x1B873593)


def _mix_h1(h: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    h = _rotl32(h ^ k, 13)
    return (_mul32(h, 5) + 0xE6546B64) & M32


def reference(keys: torch.Tensor, num_partitions: int) -> tuple:
    low = keys & M32
    high = (keys >> 32) & M32
    h = torch.full_like(keys, SPARK_SEED)
    h = _mix_h1(h, _mix_k1(low))
    h = _mix_h1(h, _mix_k1(high))
    h = h ^ 8
    h = h ^ (h >> 16)
    h = _mul32(h, 0x85EBCA6B)
    h = h ^ (h >> 13)
    h = _mul32(h, 0xC2B2AE35)
    h = h ^ (h >> 16)
    signed = torch.where(h >= 2**31, h - 2**32, h)
    part = torch.remainder(signed, num_partitions)  # Spark's Pmod: non-negative
    counts = torch.bincount(part, minlength=num_partitions)
    return part.to(torch.int32), counts.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 12 * n, "flops": 30 * n}
