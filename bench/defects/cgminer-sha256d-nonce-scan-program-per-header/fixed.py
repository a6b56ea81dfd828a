"""Bitcoin SHA-256d nonce scan (cgminer-style scanhash): midstate + tail words per job, two compressions per
nonce, hits against the share target collected with atomics."""
import torch
import triton
import triton.language as tl

BLOCK = 128

_K = tl.constexpr((
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2))


@triton.jit
def _bswap(x):
    return (x >> 24) | ((x >> 8) & 0xFF00) | ((x << 8) & 0xFF0000) | (x << 24)


@triton.jit
def _compress(s0, s1, s2, s3, s4, s5, s6, s7,
              w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15):
    """SHA-256 compression (rotations written out); the message schedule is a 16-word window that
    slides every round."""
    a, b, c, d, e, f, g, h = s0, s1, s2, s3, s4, s5, s6, s7
    for t in tl.static_range(64):
        e_rot = ((e >> 6) | (e << 26)) ^ ((e >> 11) | (e << 21)) ^ ((e >> 25) | (e << 7))
        t1 = h + e_rot + (g ^ (e & (f ^ g))) + _K[t] + w0
        a_rot = ((a >> 2) | (a << 30)) ^ ((a >> 13) | (a << 19)) ^ ((a >> 22) | (a << 10))
        t2 = a_rot + ((a & b) | (c & (a | b)))
        h, g, f, e, d, c, b, a = g, f, e, d + t1, c, b, a, t1 + t2
        if t < 48:
            sg1 = ((w14 >> 17) | (w14 << 15)) ^ ((w14 >> 19) | (w14 << 13)) ^ (w14 >> 10)
            sg0 = ((w1 >> 7) | (w1 << 25)) ^ ((w1 >> 18) | (w1 << 14)) ^ (w1 >> 3)
            nw = sg1 + w9 + sg0 + w0
        else:
            nw = w15
        w0, w1, w2, w3, w4, w5, w6, w7 = w1, w2, w3, w4, w5, w6, w7, w8
        w8, w9, w10, w11, w12, w13, w14, w15 = w9, w10, w11, w12, w13, w14, w15, nw
    return s0 + a, s1 + b, s2 + c, s3 + d, s4 + e, s5 + f, s6 + g, s7 + h


@triton.jit
def _word(ptr, k: tl.constexpr):
    return tl.load(ptr + k).to(tl.uint32, bitcast=True)


@triton.jit
def _cmp_step(below, tie, v, t):
    return below | (tie & (v < t)), tie & (v == t)


@triton.jit
def _scanhash(midstate, header, target, hits, first, n_nonces, BLOCK: tl.constexpr):
    job = tl.program_id(0)
    mid = midstate + job * 8
    hdr = header + job * 20
    m0, m1, m2, m3 = _word(mid, 0), _word(mid, 1), _word(mid, 2), _word(mid, 3)
    m4, m5, m6, m7 = _word(mid, 4), _word(mid, 5), _word(mid, 6), _word(mid, 7)
    t16, t17, t18 = _word(hdr, 16), _word(hdr, 17), _word(hdr, 18)
    first_u = first.to(tl.pointer_type(tl.uint32))

    nonce = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    live = nonce < n_nonces
    n32 = nonce.to(tl.uint32)
    z = tl.zeros([BLOCK], tl.uint32)
    # first hash: second 64-byte chunk of the header (tail words, nonce, padding, length 640 bits)
    h0, h1, h2, h3, h4, h5, h6, h7 = _compress(
        z + m0, z + m1, z + m2, z + m3, z + m4, z + m5, z + m6, z + m7,
        z + t16, z + t17, z + t18, _bswap(n32), z + 0x80000000, z, z, z, z, z, z, z, z, z, z, z + 640)
    # second hash: the 32-byte digest, padding, length 256 bits
    g0, g1, g2, g3, g4, g5, g6, g7 = _compress(
        z + 0x6a09e667, z + 0xbb67ae85, z + 0x3c6ef372, z + 0xa54ff53a,
        z + 0x510e527f, z + 0x9b05688c, z + 0x1f83d9ab, z + 0x5be0cd19,
        h0, h1, h2, h3, h4, h5, h6, h7, z + 0x80000000, z, z, z, z, z, z, z + 256)
    # the hash is compared as a little-endian 256-bit number: most significant word = bswap(g7)
    below = z != z
    tie = live
    below, tie = _cmp_step(below, tie, _bswap(g7), _word(target, 0))
    below, tie = _cmp_step(below, tie, _bswap(g6), _word(target, 1))
    below, tie = _cmp_step(below, tie, _bswap(g5), _word(target, 2))
    below, tie = _cmp_step(below, tie, _bswap(g4), _word(target, 3))
    below, tie = _cmp_step(below, tie, _bswap(g3), _word(target, 4))
    below, tie = _cmp_step(below, tie, _bswap(g2), _word(target, 5))
    below, tie = _cmp_step(below, tie, _bswap(g1), _word(target, 6))
    below, tie = _cmp_step(below, tie, _bswap(g0), _word(target, 7))
    hit = (below | tie) & live
    slot = job + tl.zeros([BLOCK], tl.int32)
    tl.atomic_add(hits + slot, tl.full([BLOCK], 1, tl.int32), mask=hit)
    tl.atomic_min(first_u + slot, n32, mask=hit)


@triton.jit
def _reset_first(first, jobs, SLOTS: tl.constexpr):
    j = tl.arange(0, SLOTS)
    tl.store(first + j, tl.full([SLOTS], -1, tl.int32), mask=j < jobs)


def run(header: torch.Tensor, midstate: torch.Tensor, target: torch.Tensor, n_nonces: int) -> tuple:
    jobs = header.shape[0]
    hits = torch.zeros(jobs, device=header.device, dtype=torch.int32)
    first = torch.empty(jobs, device=header.device, dtype=torch.int32)
    _reset_first[(1,)](first, jobs, SLOTS=triton.next_power_of_2(jobs))
    grid = (jobs, triton.cdiv(n_nonces, BLOCK))
    _scanhash[grid](midstate, header, target, hits, first, n_nonces, BLOCK=BLOCK, num_warps=4)
    return hits, first
