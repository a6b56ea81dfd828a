"""Black-Scholes call Greeks (delta, gamma, vega, theta, rho) for a book of options."""
import torch
import triton
import triton.language as tl

INV_SQRT2 = tl.constexpr(0.7071067811865476)
INV_SQRT_2PI = tl.constexpr(0.3989422804014327)


@triton.jit
def _norm_cdf(x):
    return 0.5 * (1.0 + tl.math.erf(x * INV_SQRT2))


@triton.jit
def _bsm_greeks(spot, strike, tau, sigma, rate, delta, gamma, vega, theta, rho, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    S = tl.load(spot + offs, mask=m, other=1.0)
    K = tl.load(strike + offs, mask=m, other=1.0)
    T = tl.load(tau + offs, mask=m, other=1.0)
    v = tl.load(sigma + offs, mask=m, other=1.0)
    r = tl.load(rate)
    sqt = tl.sqrt(T)
    vst = v * sqt
    d1 = (tl.log(S / K) + (r + 0.5 * v * v) * T) / vst
    d2 = d1 - vst
    pdf1 = tl.exp(-0.5 * d1 * d1) * INV_SQRT_2PI
    kdisc_nd2 = K * tl.exp(-r * T) * _norm_cdf(d2)
    tl.store(delta + offs, _norm_cdf(d1), mask=m)
    tl.store(gamma + offs, pdf1 / (S * vst), mask=m)
    tl.store(vega + offs, S * pdf1 * sqt * 0.01, mask=m)
    tl.store(theta + offs, (-S * pdf1 * v / (2.0 * sqt) - r * kdisc_nd2) / 365.0, mask=m)
    tl.store(rho + offs, T * kdisc_nd2 * 0.01, mask=m)


def run(spot, strike, tau, sigma, rate):
    n = spot.numel()
    outs = tuple(torch.empty_like(spot) for _ in range(5))
    BLOCK = 1024
    _bsm_greeks[(triton.cdiv(n, BLOCK),)](spot, strike, tau, sigma, rate, *outs, n, BLOCK=BLOCK, num_warps=4)
    return outs
