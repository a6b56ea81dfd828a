"""PostgreSQL bloom_lacks_element over a probe column: seeded lookup3 hash, k double-hashing bit tests."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
M32 = 0xFFFFFFFF


@triton.jit
def _rot(v, r: tl.constexpr):
    return (v << r) | (v >> (32 - r))


@triton.jit
def _bloom_probe(keys, bitset, out, n, a0, b0, c0, m_mask, k_hash, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ok = offs < n
    key = tl.load(keys + offs, mask=ok, other=0).to(tl.uint32, bitcast=True)
    zero = tl.zeros([BLOCK], dtype=tl.int32)
    # hash_bytes_uint32_extended: the seed part of the state is the same for every key (a0, b0, c0)
    a = (zero + a0).to(tl.uint32, bitcast=True) + key
    b = (zero + b0).to(tl.uint32, bitcast=True)
    c = (zero + c0).to(tl.uint32, bitcast=True)
    # final(a, b, c)
    c = c ^ b
    c = c - _rot(b, 14)
    a = a ^ c
    a = a - _rot(c, 11)
    b = b ^ a
    b = b - _rot(a, 25)
    c = c ^ b
    c = c - _rot(b, 16)
    a = a ^ c
    a = a - _rot(c, 4)
    b = b ^ a
    b = b - _rot(a, 14)
    c = c ^ b
    c = c - _rot(b, 24)
    # k_hashes: x = low word, y = high word, enhanced double hashing mod m
    mm = (zero + m_mask).to(tl.uint32, bitcast=True)
    x = c & mm
    y = b & mm
    maybe = ok
    for i in range(k_hash):
        byte = tl.load(bitset + (x >> 3), mask=maybe, other=0).to(tl.uint32)
        maybe = maybe & (((byte >> (x & 7)) & 1) != 0)
        x = (x + y) & mm
        y = (y + (i + 1)) & mm
    tl.store(out + offs, maybe, mask=ok)


def _seeded_state(seed: int) -> tuple:
    """a, b, c of hash_bytes_uint32_extended after the seed is mixed in (before the key is added)."""
    def rot(v, r):
        return ((v << r) | (v >> (32 - r))) & M32
    a = b = c = (0x9E3779B9 + 4 + 3923095) & M32
    if seed != 0:
        a = (a + (seed >> 32)) & M32
        b = (b + seed) & M32
        a = (a - c) & M32; a ^= rot(c, 4); c = (c + b) & M32
        b = (b - a) & M32; b ^= rot(a, 6); a = (a + c) & M32
        c = (c - b) & M32; c ^= rot(b, 8); b = (b + a) & M32
        a = (a - c) & M32; a ^= rot(c, 16); c = (c + b) & M32
        b = (b - a) & M32; b ^= rot(a, 19); a = (a + c) & M32
        c = (c - b) & M32; c ^= rot(b, 4); b = (b + a) & M32
    return tuple(v - (1 << 32) if v >= 1 << 31 else v for v in (a, b, c))  # as int32 bit patterns


def run(keys: torch.Tensor, bitset: torch.Tensor, k: int, seed: int) -> torch.Tensor:
    n = keys.numel()
    m = bitset.numel() * 8
    out = torch.empty(n, dtype=torch.bool, device=keys.device)
    a0, b0, c0 = _seeded_state(seed)
    grid = (triton.cdiv(n, BLOCK),)
    _bloom_probe[grid](keys, bitset, out, n, a0, b0, c0, m - 1, k, BLOCK=BLOCK, num_warps=4)
    return out
