"""MinHash signatures (nvtext minhash_permuted): MurmurHash3 of every WIDTH-byte shingle, then P linear permutations, min per document."""
import torch
import triton
import triton.language as tl

C1 = tl.constexpr(0xCC9E2D51)
C2 = tl.constexpr(0x1B873593)
C3 = tl.constexpr(0xE6546B64)
F1 = tl.constexpr(0x85EBCA6B)
F2 = tl.constexpr(0xC2B2AE35)
MERSENNE_61 = tl.constexpr((1 << 61) - 1)
MAX_HASH = tl.constexpr(0xFFFFFFFF)


@triton.jit
def _rotl32(x, r: tl.constexpr):
    return (x << r) | (x >> (32 - r))


@triton.jit
def _murmur3_shingles(row, pos, valid, seed, WIDTH: tl.constexpr):
    """MurmurHash3_x86_32 of the WIDTH bytes starting at row + pos (WIDTH a multiple of 4)."""
    h = tl.zeros(pos.shape, tl.uint32) + seed
    for j in tl.static_range(WIDTH // 4):
        p = row + pos + 4 * j
        k = tl.load(p, mask=valid, other=0).to(tl.uint32)
        k = k | (tl.load(p + 1, mask=valid, other=0).to(tl.uint32) << 8)
        k = k | (tl.load(p + 2, mask=valid, other=0).to(tl.uint32) << 16)
        k = k | (tl.load(p + 3, mask=valid, other=0).to(tl.uint32) << 24)
        k = _rotl32(k * C1, 15) * C2
        h = _rotl32(h ^ k, 13) * 5 + C3
    h = h ^ WIDTH
    h = (h ^ (h >> 16)) * F1
    h = (h ^ (h >> 13)) * F2
    return h ^ (h >> 16)


@triton.jit
def _permute(h, a, b):
    """((a * h + b) mod (2^61 - 1)) truncated to 32 bits; a, b < 2^31 so a * h + b < 2^63."""
    x = h.to(tl.int64) * a + b
    x = (x & MERSENNE_61) + (x >> 61)
    x = tl.where(x >= MERSENNE_61, x - MERSENNE_61, x)
    return x.to(tl.uint32)


@triton.jit
def _minhash_kernel(chars, offsets, param_a, param_b, out, seed, P,
                    WIDTH: tl.constexpr, BLOCK_S: tl.constexpr, BLOCK_P: tl.constexpr):
    doc = tl.program_id(0)
    perm = tl.program_id(1) * BLOCK_P + tl.arange(0, BLOCK_P)
    pmask = perm < P
    a = tl.load(param_a + perm, mask=pmask, other=0)
    b = tl.load(param_b + perm, mask=pmask, other=0)
    start = tl.load(offsets + doc)
    n_sh = tl.load(offsets + doc + 1) - start - WIDTH + 1
    row = chars + start
    best = tl.full([BLOCK_S, BLOCK_P], MAX_HASH, tl.uint32)
    for s0 in range(0, n_sh, BLOCK_S):
        pos = s0 + tl.arange(0, BLOCK_S)
        valid = pos < n_sh
        h = _murmur3_shingles(row, pos, valid, seed, WIDTH)
        v = _permute(h[:, None], a[None, :], b[None, :])
        best = tl.minimum(best, tl.where(valid[:, None], v, MAX_HASH))
    tl.store(out + doc * P + perm, tl.min(best, axis=0).to(tl.int64), mask=pmask)


def run(chars, offsets, param_a, param_b, seed, width):
    assert width % 4 == 0
    D = offsets.numel() - 1
    P = param_a.numel()
    out = torch.empty((D, P), device=chars.device, dtype=torch.int64)
    BLOCK_P = 32
    grid = (D, triton.cdiv(P, BLOCK_P))
    _minhash_kernel[grid](chars, offsets, param_a, param_b, out, seed, P,
                          WIDTH=width, BLOCK_S=64, BLOCK_P=BLOCK_P, num_warps=4)
    return out
