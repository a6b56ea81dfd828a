"""Wilson Dslash: D psi(x) = sum_mu (1 - g_mu) U_mu(x) psi(x+mu) + (1 + g_mu) U_mu(x-mu)^+ psi(x-mu)."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _load_color(ptr, ok):
    """Three complex numbers (re, im interleaved) at ptr."""
    return (tl.load(ptr + 0, mask=ok, other=0.0), tl.load(ptr + 1, mask=ok, other=0.0),
            tl.load(ptr + 2, mask=ok, other=0.0), tl.load(ptr + 3, mask=ok, other=0.0),
            tl.load(ptr + 4, mask=ok, other=0.0), tl.load(ptr + 5, mask=ok, other=0.0))


@triton.jit
def _times_phase(re, im, KR: tl.constexpr, KI: tl.constexpr):
    """(KR + i KI) * (re + i im) for a phase in {+-1, +-i}."""
    if KI == 0:
        return KR * re, KR * im
    else:
        return -KI * im, KI * re


@triton.jit
def _project(a, b, SIGN: tl.constexpr, KR: tl.constexpr, KI: tl.constexpr):
    """Half spinor a + SIGN * k * b (colour vectors), k the gamma-matrix phase."""
    b0r, b0i = _times_phase(b[0], b[1], KR, KI)
    b1r, b1i = _times_phase(b[2], b[3], KR, KI)
    b2r, b2i = _times_phase(b[4], b[5], KR, KI)
    return (a[0] + SIGN * b0r, a[1] + SIGN * b0i, a[2] + SIGN * b1r,
            a[3] + SIGN * b1i, a[4] + SIGN * b2r, a[5] + SIGN * b2i)


@triton.jit
def _reconstruct(w, SIGN: tl.constexpr, KR: tl.constexpr, KI: tl.constexpr):
    """Lower spin component SIGN * conj(k) * w."""
    w0r, w0i = _times_phase(w[0], w[1], SIGN * KR, -SIGN * KI)
    w1r, w1i = _times_phase(w[2], w[3], SIGN * KR, -SIGN * KI)
    w2r, w2i = _times_phase(w[4], w[5], SIGN * KR, -SIGN * KI)
    return (w0r, w0i, w1r, w1i, w2r, w2i)


@triton.jit
def _cdot(ar0, ai0, ar1, ai1, ar2, ai2, h, CONJ: tl.constexpr):
    """sum_j a_j h_j (a conjugated when CONJ) for a colour row a and a colour vector h."""
    if CONJ:
        re = ar0 * h[0] + ai0 * h[1] + ar1 * h[2] + ai1 * h[3] + ar2 * h[4] + ai2 * h[5]
        im = ar0 * h[1] - ai0 * h[0] + ar1 * h[3] - ai1 * h[2] + ar2 * h[5] - ai2 * h[4]
    else:
        re = ar0 * h[0] - ai0 * h[1] + ar1 * h[2] - ai1 * h[3] + ar2 * h[4] - ai2 * h[5]
        im = ar0 * h[1] + ai0 * h[0] + ar1 * h[3] + ai1 * h[2] + ar2 * h[5] + ai2 * h[4]
    return re, im


@triton.jit
def _su3_mul(u, h, DAGGER: tl.constexpr):
    """U h, or U^dagger h, for a link u (18 reals, row-major) and a colour vector h."""
    if DAGGER:
        w0r, w0i = _cdot(u[0], u[1], u[6], u[7], u[12], u[13], h, True)
        w1r, w1i = _cdot(u[2], u[3], u[8], u[9], u[14], u[15], h, True)
        w2r, w2i = _cdot(u[4], u[5], u[10], u[11], u[16], u[17], h, True)
    else:
        w0r, w0i = _cdot(u[0], u[1], u[2], u[3], u[4], u[5], h, False)
        w1r, w1i = _cdot(u[6], u[7], u[8], u[9], u[10], u[11], h, False)
        w2r, w2i = _cdot(u[12], u[13], u[14], u[15], u[16], u[17], h, False)
    return (w0r, w0i, w1r, w1i, w2r, w2i)


@triton.jit
def _wilson_hop(psi, gauge, s, ok, LX, LY, LZ, LT, MU: tl.constexpr, FWD: tl.constexpr):
    """The 24 reals of (1 -+ gamma_mu) U psi from the neighbour s +- mu (DeGrand-Rossi basis)."""
    if MU == 0:
        stride = 1
        extent = LX
        coord = s % LX
        P0: tl.constexpr = 3
        P1: tl.constexpr = 2
        K0R: tl.constexpr = 0
        K0I: tl.constexpr = 1
        K1R: tl.constexpr = 0
        K1I: tl.constexpr = 1
    elif MU == 1:
        stride = LX
        extent = LY
        coord = (s // LX) % LY
        P0: tl.constexpr = 3
        P1: tl.constexpr = 2
        K0R: tl.constexpr = -1
        K0I: tl.constexpr = 0
        K1R: tl.constexpr = 1
        K1I: tl.constexpr = 0
    elif MU == 2:
        stride = LX * LY
        extent = LZ
        coord = (s // (LX * LY)) % LZ
        P0: tl.constexpr = 2
        P1: tl.constexpr = 3
        K0R: tl.constexpr = 0
        K0I: tl.constexpr = 1
        K1R: tl.constexpr = 0
        K1I: tl.constexpr = -1
    else:
        stride = LX * LY * LZ
        extent = LT
        coord = s // (LX * LY * LZ)
        P0: tl.constexpr = 2
        P1: tl.constexpr = 3
        K0R: tl.constexpr = 1
        K0I: tl.constexpr = 0
        K1R: tl.constexpr = 1
        K1I: tl.constexpr = 0
    if FWD:
        nb = tl.where(coord == extent - 1, s - (extent - 1) * stride, s + stride)
        link = s
        SIGN: tl.constexpr = -1
    else:
        nb = tl.where(coord == 0, s + (extent - 1) * stride, s - stride)
        link = nb
        SIGN: tl.constexpr = 1
    src = psi + nb * 24
    h0 = _project(_load_color(src, ok), _load_color(src + P0 * 6, ok), SIGN, K0R, K0I)
    h1 = _project(_load_color(src + 6, ok), _load_color(src + P1 * 6, ok), SIGN, K1R, K1I)
    lp = gauge + link * 72 + MU * 18
    u = (tl.load(lp + 0, mask=ok, other=0.0), tl.load(lp + 1, mask=ok, other=0.0),
         tl.load(lp + 2, mask=ok, other=0.0), tl.load(lp + 3, mask=ok, other=0.0),
         tl.load(lp + 4, mask=ok, other=0.0), tl.load(lp + 5, mask=ok, other=0.0),
         tl.load(lp + 6, mask=ok, other=0.0), tl.load(lp + 7, mask=ok, other=0.0),
         tl.load(lp + 8, mask=ok, other=0.0), tl.load(lp + 9, mask=ok, other=0.0),
         tl.load(lp + 10, mask=ok, other=0.0), tl.load(lp + 11, mask=ok, other=0.0),
         tl.load(lp + 12, mask=ok, other=0.0), tl.load(lp + 13, mask=ok, other=0.0),
         tl.load(lp + 14, mask=ok, other=0.0), tl.load(lp + 15, mask=ok, other=0.0),
         tl.load(lp + 16, mask=ok, other=0.0), tl.load(lp + 17, mask=ok, other=0.0))
    w0 = _su3_mul(u, h0, not FWD)
    w1 = _su3_mul(u, h1, not FWD)
    w2 = _reconstruct(w0, SIGN, K0R, K0I)  # spin P0
    w3 = _reconstruct(w1, SIGN, K1R, K1I)  # spin P1
    if P0 == 3:
        return w0 + w1 + w3 + w2
    else:
        return w0 + w1 + w2 + w3


@triton.jit
def _dslash_hop_kernel(psi, gauge, out, V, LX, LY, LZ, LT,
                       MU: tl.constexpr, FWD: tl.constexpr, BLOCK: tl.constexpr):
    s = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = s < V
    hop = _wilson_hop(psi, gauge, s, ok, LX, LY, LZ, LT, MU, FWD)
    dst = out + s * 24
    for k in tl.static_range(24):
        acc = tl.load(dst + k, mask=ok, other=0.0)
        tl.store(dst + k, acc + hop[k], mask=ok)


def run(psi: torch.Tensor, gauge: torch.Tensor, lx: int, ly: int, lz: int, lt: int) -> torch.Tensor:
    v = lx * ly * lz * lt
    out = torch.zeros_like(psi)
    grid = (triton.cdiv(v, BLOCK),)
    for mu in range(4):
        for fwd in (True, False):
            _dslash_hop_kernel[grid](psi, gauge, out, v, lx, ly, lz, lt,
                                     MU=mu, FWD=fwd, BLOCK=BLOCK, num_warps=4)
    return out
