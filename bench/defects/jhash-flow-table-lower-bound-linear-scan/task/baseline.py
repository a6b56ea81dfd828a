"""Flow lookup: inet_ehashfn (jhash_3words) of each frame's 4-tuple, then its slot in the sorted key table."""
import torch
import triton
import triton.language as tl

JHASH_INIT = tl.constexpr((0x3C6EF372 + 0xDEADBEEF + 12) & 0xFFFFFFFF)


@triton.jit
def _rol32(x, k: tl.constexpr):
    return (x << k) | (x >> (32 - k))


@triton.jit
def _byte(p):
    return tl.load(p).to(tl.uint32)


@triton.jit
def _inet_ehash(hdr):
    a = _byte(hdr + 26) | (_byte(hdr + 27) << 8) | (_byte(hdr + 28) << 16) | (_byte(hdr + 29) << 24)
    b = _byte(hdr + 30) | (_byte(hdr + 31) << 8) | (_byte(hdr + 32) << 16) | (_byte(hdr + 33) << 24)
    c = (_byte(hdr + 34) << 24) | (_byte(hdr + 35) << 16) | (_byte(hdr + 36) << 8) | _byte(hdr + 37)
    a += JHASH_INIT
    b += JHASH_INIT
    c += JHASH_INIT
    c = (c ^ b) - _rol32(b, 14)
    a = (a ^ c) - _rol32(c, 11)
    b = (b ^ a) - _rol32(a, 25)
    c = (c ^ b) - _rol32(b, 16)
    a = (a ^ c) - _rol32(c, 4)
    b = (b ^ a) - _rol32(a, 14)
    c = (c ^ b) - _rol32(b, 24)
    return c


@triton.jit
def _flow_lookup(data, offsets, keys, slot, N, F, STEPS: tl.constexpr, BLOCK_P: tl.constexpr):
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    live = p < N
    base = tl.load(offsets + p, mask=live, other=0)
    h = _inet_ehash(data + base).to(tl.int64)
    lo = tl.zeros([BLOCK_P], dtype=tl.int32)
    hi = lo + F
    for _ in range(STEPS):
        open_ = lo < hi
        mid = (lo + hi) >> 1
        kv = tl.load(keys + mid, mask=open_, other=0)
        right = open_ & (kv < h)
        lo = tl.where(right, mid + 1, lo)
        hi = tl.where(open_ & (kv >= h), mid, hi)
    hit = tl.load(keys + lo, mask=live & (lo < F), other=-1)
    tl.store(slot + p, tl.where(hit == h, lo, -1), mask=live)


def run(data: torch.Tensor, offsets: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
    N, F = offsets.shape[0], keys.shape[0]
    slot = torch.empty(N, dtype=torch.int32, device=data.device)
    BLOCK_P = 128
    _flow_lookup[(triton.cdiv(N, BLOCK_P),)](data, offsets, keys, slot, N, F, STEPS=F.bit_length(),
                                             BLOCK_P=BLOCK_P)
    return slot
