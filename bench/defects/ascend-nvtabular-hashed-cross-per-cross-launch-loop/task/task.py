"""Hashed feature crossing of categorical columns (NVTabular / Merlin ``ops.HashedCross``).

NVTabular's HashedCross builds a crossed categorical column for every listed group of columns: it
hashes each input column with cuDF's ``hash_values()`` (MurmurHash3_x86_32, seed 0, over the 4 bytes
of an int32 value), XORs the column hashes together and reduces modulo the bucket count:

    cross[p, r] = (murmur3_32(cats[a_p, r]) ^ murmur3_32(cats[b_p, r])) % num_buckets

Here the crosses are pairs (a_p, b_p) of the 26 Criteo categorical columns (32-bit hashed ids, held
column-major as a dataframe holds them: cats[F, B]), applied to one training batch of B rows. cuDF's
hash is a uint32 column and num_buckets = 2^20, so every bucket id fits int32, the index dtype the
embedding lookup downstream takes: out[P, B] int32, one contiguous column per cross.
"""
import torch

META = {
    "name": "hashed_cross",
    "level": 1,
    "category": "hashing",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"B": 1000, "F": 6, "P": 5},
        "ragged": {"B": 1237, "F": 7, "P": 9},
        "large": {"B": 65536, "F": 26, "P": 32},
    },
    "baseline_notes": "One launch: 40 programs (the A2's vector cores) stride over blocks of 1024 rows and, "
                      "for each block, loop over all crosses (pair indices read on the device), hash both "
                      "columns with an inlined uint32 murmur3, XOR, reduce by the constexpr power-of-two "
                      "bucket count and store int32 bucket ids; no autotune.",
    "deterministic": True,
}
NUM_BUCKETS = 1 << 20
_M32 = 0xFFFFFFFF


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """cats [F, B] int32 (column-major categorical ids), pairs [P, 2] int32 (crossed columns), num_buckets."""
    s = META["sizes"][size]
    F, B, P = s["F"], s["B"], s["P"]
    g = torch.Generator().manual_seed(seed)
    cats = torch.randint(-(2 ** 31), 2 ** 31 - 1, (F, B), generator=g, dtype=torch.int64)
    edges = torch.tensor([0, -1, 1, 2 ** 31 - 1, -(2 ** 31)])
    for f in range(F):                                               # edge values, shifted per column
        cats[f, :5] = edges.roll(f)
    iu = torch.triu_indices(F, F, offset=1)
    pick = torch.randperm(iu.shape[1], generator=g)[:P]
    pairs = iu[:, pick].t().contiguous()
    dt = getattr(torch, dtype or META["dtypes"][0])
    return cats.to(dt).to(device), pairs.to(torch.int32).to(device), NUM_BUCKETS


def _mul32(a: torch.Tensor, c: int) -> torch.Tensor:
    """(a * c) mod 2**32 for 0 <= a < 2**32 without overflowing int64."""
    return ((((a >> 16) * c) & 0xFFFF) << 16) + (a & 0xFFFF) * c & _M32


def murmur3_32(x: torch.Tensor) -> torch.Tensor:
    """MurmurHash3_x86_32 of each 4-byte value (seed 0), as int64 in [0, 2**32)."""
    k = x.long() & _M32
    k = _mul32(k, 0xCC9E2D51)
    k = ((k << 15) | (k >> 17)) & _M32
    k = _mul32(k, 0x1B873593)
    h = ((k << 13) | (k >> 19)) & _M32
    h = (h * 5 + 0xE6546B64) & _M32
    h = h ^ 4
    h = h ^ (h >> 16)
    h = _mul32(h, 0x85EBCA6B)
    h = h ^ (h >> 13)
    h = _mul32(h, 0xC2B2AE35)
    return h ^ (h >> 16)


def reference(cats: torch.Tensor, pairs: torch.Tensor, num_buckets: int) -> torch.Tensor:
    hashed = murmur3_32(cats)
    p = pairs.long()
    return ((hashed[p[:, 0]] ^ hashed[p[:, 1]]) % num_buckets).to(torch.int32)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * 2 * s["P"] * s["B"] + 4 * s["P"] * s["B"], "flops": 0, "intops": 34 * s["P"] * s["B"]}
