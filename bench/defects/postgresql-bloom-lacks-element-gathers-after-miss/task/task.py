"""Bloom-filter membership test of PostgreSQL's lib/bloomfilter.c (bloom_lacks_element), vectorised over a probe column.

The filter is PostgreSQL's: a bitset of m bits (m a power of two, bytes addressed as bitset[h >> 3],
bit h & 7) and k hash functions from enhanced double hashing (k_hashes): the element's 4 bytes are
hashed with the seeded 64-bit Jenkins lookup3 hash (hash_bytes_uint32_extended(key, seed)),
x = low 32 bits & (m - 1), y = high 32 bits & (m - 1), h_0 = x and for i = 1..k-1:
x = (x + y) & (m - 1), y = (y + i) & (m - 1), h_i = x. An element may be present iff all k bits are
set. Here the filter holds the join keys of a filtered build side and the probe column is the join
key of the big side (a semi-join pre-filter: lineitem.l_orderkey against the orders of a date
window). Returns a bool [N]: True where the filter may contain the key (not bloom_lacks_element).
"""
import math

import torch

META = {
    "name": "bloom_probe",
    "level": 2,
    "category": "database",
    "dtypes": ["int32"],
    "tolerance": {"int32": {"atol": 0, "rtol": 0}},
    "sizes": {
        "small": {"N": 2000, "build": 300, "domain": 4000, "log2_m": 12},
        "ragged": {"N": 3001, "build": 517, "domain": 7001, "log2_m": 13},
        "large": {"N": 59_986_052, "build": 1_100_000, "domain": 15_000_000, "log2_m": 24},
    },
    "baseline_notes": "One program per 1024 probe keys (4 warps): seeded lookup3 hash of the key in uint32 "
                      "arithmetic, then the k double-hashing positions; each bitset byte is gathered under the "
                      "mask of lanes whose earlier bits were all set (bloom_lacks_element's early return), one "
                      "bool store per key. No autotune.",
    "deterministic": True,
}
MAX_HASH_FUNCS = 10
SEED = 0x5DEECE66D2B7E151  # the caller's random seed (amcheck passes a random one)
M32 = 0xFFFFFFFF


def optimal_k(bitset_bits: int, total_elems: int) -> int:
    """bloomfilter.c optimal_k: round(ln 2 * m / n), clamped to [1, MAX_HASH_FUNCS]."""
    k = int(math.floor(math.log(2.0) * bitset_bits / total_elems + 0.5))
    return max(1, min(k, MAX_HASH_FUNCS))


def _rot(v: torch.Tensor, r: int) -> torch.Tensor:
    return ((v << r) | (v >> (32 - r))) & M32


def _mix(a, b, c):
    a = (a - c) & M32; a = a ^ _rot(c, 4); c = (c + b) & M32
    b = (b - a) & M32; b = b ^ _rot(a, 6); a = (a + c) & M32
    c = (c - b) & M32; c = c ^ _rot(b, 8); b = (b + a) & M32
    a = (a - c) & M32; a = a ^ _rot(c, 16); c = (c + b) & M32
    b = (b - a) & M32; b = b ^ _rot(a, 19); a = (a + c) & M32
    c = (c - b) & M32; c = c ^ _rot(b, 4); b = (b + a) & M32
    return a, b, c


def _final(a, b, c):
    c = c ^ b; c = (c - _rot(b, 14)) & M32
    a = a ^ c; a = (a - _rot(c, 11)) & M32
    b = b ^ a; b = (b - _rot(a, 25)) & M32
    c = c ^ b; c = (c - _rot(b, 16)) & M32
    a = a ^ c; a = (a - _rot(c, 4)) & M32
    b = b ^ a; b = (b - _rot(a, 14)) & M32
    c = c ^ b; c = (c - _rot(b, 24)) & M32
    return a, b, c


def k_positions(keys: torch.Tensor, seed: int, log2_m: int, k: int) -> torch.Tensor:
    """[len(keys), k] int64 bit positions h_i of k_hashes (int64 tensors standing in for uint32)."""
    key = keys.long() & M32
    init = (0x9E3779B9 + 4 + 3923095) & M32
    a = torch.full_like(key, init)
    b, c = a.clone(), a.clone()
    if seed != 0:
        a = (a + ((seed >> 32) & M32)) & M32
        b = (b + (seed & M32)) & M32
        a, b, c = _mix(a, b, c)
    a = (a + key) & M32
    a, b, c = _final(a, b, c)
    mask = (1 << log2_m) - 1
    x, y = c & mask, b & mask
    out = [x]
    for i in range(1, k):
        x = (x + y) & mask
        y = (y + i) & mask
        out.append(x)
    return torch.stack(out, dim=1)


def make_inputs(size: str, device: str = "cpu", seed: int = 0, dtype: str | None = None) -> tuple:
    """probe keys int32 [N], bitset uint8 [m / 8] built from `build` distinct keys, k, hash seed."""
    s = META["sizes"][size]
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype or META["dtypes"][0])
    build = torch.randperm(s["domain"], generator=g)[: s["build"]]
    probe = torch.randint(0, s["domain"], (s["N"],), generator=g)
    m = 1 << s["log2_m"]
    k = optimal_k(m, s["build"])
    bits = torch.zeros(m, dtype=torch.bool)
    for start in range(0, build.numel(), 1 << 20):
        bits[k_positions(build[start:start + (1 << 20)], SEED, s["log2_m"], k).reshape(-1)] = True
    weights = torch.tensor([1 << j for j in range(8)], dtype=torch.int32)
    bitset = (bits.view(-1, 8).to(torch.int32) * weights).sum(1).to(torch.uint8)
    return probe.to(device=device, dtype=dt), bitset.to(device), k, SEED


def reference(keys: torch.Tensor, bitset: torch.Tensor, k: int, seed: int) -> torch.Tensor:
    log2_m = (bitset.numel() * 8).bit_length() - 1
    out = torch.empty(keys.numel(), dtype=torch.bool, device=keys.device)
    table = bitset.long()
    for start in range(0, keys.numel(), 1 << 22):
        h = k_positions(keys[start:start + (1 << 22)], seed, log2_m, k)
        bit = (table[h >> 3] >> (h & 7)) & 1
        out[start:start + (1 << 22)] = bit.bool().all(dim=1)
    return out


def cost(size: str, dtype: str | None = None) -> dict:
    s = META["sizes"][size]
    k = optimal_k(1 << s["log2_m"], s["build"])
    return {"bytes": 5 * s["N"] + (1 << s["log2_m"]) // 8, "flops": (40 + 8 * k) * s["N"]}
