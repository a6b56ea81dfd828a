"""Partition sizing pass of partitioned k-mer counting (KMC / Jellyfish-style disk bins).

Partitioned counters split the canonical k-mers of a read batch into n_bins partitions by a hash of
the k-mer, so that each partition can later be counted in memory on its own. The first pass only
sizes the partitions: every canonical k-mer code (2 bits per base, here k = 15, 30-bit codes as
produced by the encoding pass) is hashed with the MurmurHash3 32-bit finalizer (fmix32) and its bin
is the top log2(n_bins) bits of the hash; the pass returns the number of k-mers per bin (an
exclusive scan of it gives each bin's write offset for the distribution pass).

Returns counts [n_bins] int32.
"""
import torch

KMER = 15

META = {
    "name": "kmer_partition_histogram",
    "level": 2,
    "category": "histogram",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 3000, "n_bins": 512},
        "ragged": {"N": 4099, "n_bins": 512},
        "large": {"N": 33554432, "n_bins": 512},
    },
    "baseline_notes": "40 programs (the 910B4's vector cores) loop over blocks of 4096 k-mer codes: one "
                      "contiguous load, fmix32 in uint32, bin = hash >> 23, tl.histogram of the block's bins "
                      "added into a per-program [512] int32 accumulator; one 512-lane atomic add per program "
                      "at the end (the padding lanes of the last block land in bin 0 and its owner takes them "
                      "back out). No autotune.",
    "deterministic": True,
}
_M32 = 0xFFFFFFFF


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """Canonical k-mer codes [N] int32 (read-like: overlapping k-mers of random reads, some repeats)
    and the number of bins (int, a power of two)."""
    s = META["sizes"][size]
    n, n_bins = s["N"], s["n_bins"]
    g = torch.Generator().manual_seed(seed)
    codes = torch.randint(0, 1 << (2 * KMER), (n,), generator=g, dtype=torch.int64)
    # duplicated k-mers (coverage > 1) and the all-A k-mer (code 0) of poly-A tails
    dup = torch.rand(n, generator=g) < 0.3
    codes[dup] = codes[torch.randint(0, max(1, n // 64), (n,), generator=g)][dup]
    codes[torch.rand(n, generator=g) < 0.01] = 0
    return codes.to(torch.int32).to(device), n_bins


def _mul32(a: torch.Tensor, c: int) -> torch.Tensor:
    lo = a * (c & 0xFFFF)
    hi = ((a * (c >> 16)) & 0xFFFF) << 16
    return (lo + hi) & _M32


def reference(codes: torch.Tensor, n_bins: int) -> torch.Tensor:
    h = codes.cpu().long() & _M32
    h = h ^ (h >> 16)
    h = _mul32(h, 0x85EBCA6B)
    h = h ^ (h >> 13)
    h = _mul32(h, 0xC2B2AE35)
    h = h ^ (h >> 16)
    bins = h >> (32 - (n_bins.bit_length() - 1))
    return torch.bincount(bins, minlength=n_bins).to(torch.int32).to(codes.device)


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    return {"bytes": 4 * s["N"] + 4 * s["n_bins"], "flops": 12 * s["N"]}
