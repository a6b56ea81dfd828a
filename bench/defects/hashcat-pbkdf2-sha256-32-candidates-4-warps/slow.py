"""PBKDF2-HMAC-SHA256 for a batch of password candidates (hashcat -m 10900 style): an init kernel computes the
ipad/opad states once per candidate, the loop kernel runs two SHA-256 compressions per iteration with U and the
running XOR kept in registers."""
import torch
import triton
import triton.language as tl

BLOCK = 32

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
def _sha256_block(s0, s1, s2, s3, s4, s5, s6, s7,
                  w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15):
    """One SHA-256 compression of a 16-word block into state s; the schedule slides over 16 words."""
    a, b, c, d, e, f, g, h = s0, s1, s2, s3, s4, s5, s6, s7
    for t in tl.static_range(64):
        big1 = ((e >> 6) | (e << 26)) ^ ((e >> 11) | (e << 21)) ^ ((e >> 25) | (e << 7))
        t1 = h + big1 + (g ^ (e & (f ^ g))) + _K[t] + w0
        big0 = ((a >> 2) | (a << 30)) ^ ((a >> 13) | (a << 19)) ^ ((a >> 22) | (a << 10))
        t2 = big0 + ((a & b) | (c & (a | b)))
        h, g, f, e, d, c, b, a = g, f, e, d + t1, c, b, a, t1 + t2
        if t < 48:
            lo1 = ((w14 >> 17) | (w14 << 15)) ^ ((w14 >> 19) | (w14 << 13)) ^ (w14 >> 10)
            lo0 = ((w1 >> 7) | (w1 << 25)) ^ ((w1 >> 18) | (w1 << 14)) ^ (w1 >> 3)
            nw = lo1 + w9 + lo0 + w0
        else:
            nw = w15
        w0, w1, w2, w3, w4, w5, w6, w7 = w1, w2, w3, w4, w5, w6, w7, w8
        w8, w9, w10, w11, w12, w13, w14, w15 = w9, w10, w11, w12, w13, w14, w15, nw
    return s0 + a, s1 + b, s2 + c, s3 + d, s4 + e, s5 + f, s6 + g, s7 + h


@triton.jit
def _split4(x):
    """[B, 4] -> its 4 columns."""
    lo, hi = tl.split(tl.reshape(x, [x.shape[0], 2, 2]))
    c0, c2 = tl.split(lo)
    c1, c3 = tl.split(hi)
    return c0, c1, c2, c3


@triton.jit
def _split8(x):
    """[B, 8] -> its 8 columns."""
    ev, od = tl.split(tl.reshape(x, [x.shape[0], 4, 2]))
    c0, c2, c4, c6 = _split4(ev)
    c1, c3, c5, c7 = _split4(od)
    return c0, c1, c2, c3, c4, c5, c6, c7


@triton.jit
def _join8(c0, c1, c2, c3, c4, c5, c6, c7):
    """8 columns -> [B, 8]."""
    x = tl.join(tl.join(tl.join(c0, c4), tl.join(c2, c6)), tl.join(tl.join(c1, c5), tl.join(c3, c7)))
    return tl.reshape(x, [c0.shape[0], 8])


@triton.jit
def _hmac_init(pw, pads, n, BLOCK: tl.constexpr):
    """Per candidate: the SHA-256 states after the key blocks (P ^ ipad) and (P ^ opad), stored to pads [N, 2, 8]."""
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = rows[:, None] < n
    c8 = tl.arange(0, 8)[None, :]
    c16 = tl.arange(0, 16)[None, :]
    key = tl.load(pw + rows[:, None] * 16 + c16, mask=live, other=0).to(tl.uint32, bitcast=True)
    ev, od = tl.split(tl.reshape(key, [BLOCK, 8, 2]))
    k0, k2, k4, k6, k8, k10, k12, k14 = _split8(ev)
    k1, k3, k5, k7, k9, k11, k13, k15 = _split8(od)
    z = tl.zeros([BLOCK], tl.uint32)
    for half in tl.static_range(2):
        pad = 0x36363636 if half == 0 else 0x5c5c5c5c
        h0, h1, h2, h3, h4, h5, h6, h7 = _sha256_block(
            z + 0x6a09e667, z + 0xbb67ae85, z + 0x3c6ef372, z + 0xa54ff53a,
            z + 0x510e527f, z + 0x9b05688c, z + 0x1f83d9ab, z + 0x5be0cd19,
            k0 ^ pad, k1 ^ pad, k2 ^ pad, k3 ^ pad, k4 ^ pad, k5 ^ pad, k6 ^ pad, k7 ^ pad,
            k8 ^ pad, k9 ^ pad, k10 ^ pad, k11 ^ pad, k12 ^ pad, k13 ^ pad, k14 ^ pad, k15 ^ pad)
        state = _join8(h0, h1, h2, h3, h4, h5, h6, h7)
        tl.store(pads + rows[:, None] * 16 + 8 * half + c8, state.to(tl.int32, bitcast=True), mask=live)


@triton.jit
def _pbkdf2_loop(pads, salt, dk, n, iterations, BLOCK: tl.constexpr):
    """U_1 = HMAC(P, salt || INT(1)), U_i = HMAC(P, U_{i-1}), DK = U_1 ^ ... ^ U_c, two compressions per U."""
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    live = rows[:, None] < n
    c8 = tl.arange(0, 8)[None, :]
    st = pads + rows[:, None] * 16 + c8
    i0, i1, i2, i3, i4, i5, i6, i7 = _split8(tl.load(st, mask=live, other=0).to(tl.uint32, bitcast=True))
    o0, o1, o2, o3, o4, o5, o6, o7 = _split8(tl.load(st + 8, mask=live, other=0).to(tl.uint32, bitcast=True))
    c4 = tl.arange(0, 4)
    sw = tl.load(salt + c4).to(tl.uint32, bitcast=True)
    z = tl.zeros([BLOCK], tl.uint32)
    # U_0 stands for the first message: salt (4 words), INT(1), then the 0x80 pad; 64 + 20 bytes = 672 bits
    u0 = z + tl.sum(tl.where(c4 == 0, sw, 0))
    u1 = z + tl.sum(tl.where(c4 == 1, sw, 0))
    u2 = z + tl.sum(tl.where(c4 == 2, sw, 0))
    u3 = z + tl.sum(tl.where(c4 == 3, sw, 0))
    u4, u5, u6, u7 = z + 1, z + 0x80000000, z, z
    w8, w15 = z, z + 672
    t0, t1, t2, t3, t4, t5, t6, t7 = z, z, z, z, z, z, z, z
    pad = z + 0x80000000
    for _ in range(iterations):
        x0, x1, x2, x3, x4, x5, x6, x7 = _sha256_block(
            i0, i1, i2, i3, i4, i5, i6, i7,
            u0, u1, u2, u3, u4, u5, u6, u7, w8, z, z, z, z, z, z, w15)
        u0, u1, u2, u3, u4, u5, u6, u7 = _sha256_block(
            o0, o1, o2, o3, o4, o5, o6, o7,
            x0, x1, x2, x3, x4, x5, x6, x7, pad, z, z, z, z, z, z, z + 768)
        t0, t1, t2, t3 = t0 ^ u0, t1 ^ u1, t2 ^ u2, t3 ^ u3
        t4, t5, t6, t7 = t4 ^ u4, t5 ^ u5, t6 ^ u6, t7 ^ u7
        # from U_2 on the message is U_{i-1} (32 bytes) + pad: 64 + 32 bytes = 768 bits
        w8, w15 = pad, z + 768
    out = _join8(t0, t1, t2, t3, t4, t5, t6, t7)
    tl.store(dk + rows[:, None] * 8 + c8, out.to(tl.int32, bitcast=True), mask=live)


def run(pw: torch.Tensor, salt: torch.Tensor, iterations: int) -> torch.Tensor:
    n = pw.shape[0]
    pads = torch.empty(n, 16, device=pw.device, dtype=torch.int32)
    dk = torch.empty(n, 8, device=pw.device, dtype=torch.int32)
    grid = (triton.cdiv(n, BLOCK),)
    _hmac_init[grid](pw, pads, n, BLOCK=BLOCK)
    _pbkdf2_loop[grid](pads, salt, dk, n, iterations, BLOCK=BLOCK)
    return dk
