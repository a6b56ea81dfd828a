"""DuckDB hash-join partitioning: hash the BIGINT join key and take its radix partition.

Modelled on the probe side of DuckDB's external (partitioned) hash join: JoinHashTable hashes the key
vector with Hash(int64) = MurmurHash64 (x ^= x >> 32; x *= 0xd6e8feb86659fd93; twice; x ^= x >> 32),
then PartitionedTupleData bins every row with RadixPartitioning::ApplyMask: the radix bits sit right
below the 16 salt bits, partition = (hash >> (48 - radix_bits)) & (2^radix_bits - 1). The input is
lineitem.l_orderkey of TPC-H (dbgen's sparse order keys, 1-7 lines per order, in order).
Returns (hashes int64 [N] = the hash_t bit pattern, partition int32 [N]).
"""
import torch

META = {
    "name": "radix_partition_hash",
    "level": 1,
    "category": "database",
    "dtypes": ["int64"],
    "tolerance": {"int64": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 250_000, "radix_bits": 4},
        "ragged": {"N": 370_001, "radix_bits": 5},
        "large": {"N": 59_986_052, "radix_bits": 8},
    },
    "baseline_notes": "One launch over the whole column, 1024 rows per program (4 warps): MurmurHash64 in uint64 "
                      "arithmetic, one int64 store of the hash and one int32 store of the radix partition per "
                      "row. No autotune.",
    "deterministic": True,
}
MURMUR_MUL = 0xD6E8FEB86659FD93


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """l_orderkey int64 [N] (sorted, 1-7 lines per order, dbgen's 8-of-32 sparse keys), radix_bits."""
    s = META["sizes"][size]
    n = s["N"]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    n_orders = n // 4 + n // 100 + 64
    o = torch.arange(n_orders, dtype=torch.int64)
    orderkey = (o // 8) * 32 + o % 8 + 1
    lines = torch.randint(1, 8, (n_orders,), generator=g)
    keys = torch.repeat_interleave(orderkey, lines)[:n]
    return keys.to(device=device, dtype=dt), s["radix_bits"]


def reference(keys: torch.Tensor, radix_bits: int) -> tuple:
    mul = MURMUR_MUL - (1 << 64)  # the same 64-bit pattern as a signed int64
    x = keys.long()
    x = x ^ ((x >> 32) & 0xFFFFFFFF)
    x = x * mul
    x = x ^ ((x >> 32) & 0xFFFFFFFF)
    x = x * mul
    x = x ^ ((x >> 32) & 0xFFFFFFFF)
    part = (x >> (48 - radix_bits)) & ((1 << radix_bits) - 1)
    return x, part.to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    n = META["sizes"][size]["N"]
    return {"bytes": 20 * n, "flops": 12 * n}
