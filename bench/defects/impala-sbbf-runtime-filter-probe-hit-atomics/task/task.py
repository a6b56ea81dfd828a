"""Split-block Bloom filter probe as a runtime join filter (Apache Impala / Kudu SBBF, the block layout Parquet
bloom filters and cuCollections' arrow_filter_policy use).

The filter is num_blocks 256-bit blocks of eight 32-bit words. A key is hashed to 64 bits (murmur3 fmix64 of
the sign-extended key); the block is ((h >> 32) * num_blocks) >> 32 and word i must have bit
((uint32(h) * SALT[i]) mod 2^32) >> 27 set. Output: the per-row pass mask and the number of passing rows
(used to size the gather of the surviving rows).
"""
import numpy as np
import torch

SALT = np.array([0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D,
                 0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31], dtype=np.uint64)

META = {
    "name": "sbbf_probe_count",
    "level": 2,
    "category": "analytics",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0.0, "rtol": 0.0}},
    "sizes": {
        "small": {"N": 1000, "BUILD": 40, "BLOCKS": 16, "DOMAIN": 400},
        "ragged": {"N": 777, "BUILD": 23, "BLOCKS": 8, "DOMAIN": 150},
        "large": {"N": 120_000_000, "BUILD": 120_000, "BLOCKS": 8192, "DOMAIN": 600_000},
    },
    "baseline_notes": "BLOCK = 1024 keys per program: fmix64 hash, one [BLOCK, 8] gather of each key's filter block, "
                      "eight salted bit tests, pass mask stored; the program's pass count summed in registers and "
                      "added with one atomic per program; 8 warps, no autotune.",
    "deterministic": True,
}


def _hash(keys: np.ndarray):
    h = keys.astype(np.int64).astype(np.uint64)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xC4CEB9FE1A85EC53)
    h ^= h >> np.uint64(33)
    return h


def _block_and_bits(keys: np.ndarray, num_blocks: int):
    with np.errstate(over="ignore"):
        h = _hash(keys)
        block = ((h >> np.uint64(32)) * np.uint64(num_blocks)) >> np.uint64(32)
        lo = h & np.uint64(0xFFFFFFFF)
        bits = ((lo[:, None] * SALT[None, :]) & np.uint64(0xFFFFFFFF)) >> np.uint64(27)
    return block.astype(np.int64), bits.astype(np.int64)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """filter [num_blocks, 8] int32 (bit patterns of uint32 words), keys [N] int32 (fact-table join keys)."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    build = (torch.randperm(s["DOMAIN"], generator=g)[: s["BUILD"]] + 1).numpy()
    block, bits = _block_and_bits(build, s["BLOCKS"])
    words = np.zeros((s["BLOCKS"], 8), dtype=np.uint32)
    np.bitwise_or.at(words, (np.repeat(block, 8), np.tile(np.arange(8), len(build))),
                     (np.uint32(1) << bits.reshape(-1).astype(np.uint32)))
    filt = torch.from_numpy(words.view(np.int32).copy())
    keys = torch.randint(1, s["DOMAIN"] + 1, (s["N"],), generator=g, dtype=torch.int32)
    return filt.to(device), keys.to(getattr(torch, dtype or META["dtypes"][0])).to(device)


def reference(filt: torch.Tensor, keys: torch.Tensor) -> tuple:
    words = filt.cpu().numpy().view(np.uint32).astype(np.int64)
    hits = np.ones(keys.numel(), dtype=bool)
    k = keys.cpu().numpy()
    for start in range(0, k.size, 1 << 22):
        block, bits = _block_and_bits(k[start:start + (1 << 22)], filt.shape[0])
        hits[start:start + (1 << 22)] = (((words[block] >> bits) & 1) == 1).all(axis=1)
    mask = torch.from_numpy(hits).to(keys.device)
    count = torch.tensor([int(hits.sum())], dtype=torch.int32, device=keys.device)
    return mask, count


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] + s["N"] + 32 * s["BLOCKS"], "flops": 30 * s["N"]}
