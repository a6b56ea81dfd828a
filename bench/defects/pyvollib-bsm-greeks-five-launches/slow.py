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
def _load_d1(spot, strike, tau, sigma, rate, offs, m):
    S = tl.load(spot + offs, mask=m, other=1.0)
    K = tl.load(strike + offs, mask=m, other=1.0)
    T = tl.load(tau + offs, mask=m, other=1.0)
    v = tl.load(sigma + offs, mask=m, other=1.0)
    r = tl.load(rate)
    sqt = tl.sqrt(T)
    d1 = (tl.log(S / K) + (r + 0.5 * v * v) * T) / (v * sqt)
    return S, K, T, v, r, sqt, d1


@triton.jit
def _delta(spot, strike, tau, sigma, rate, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    S, K, T, v, r, sqt, d1 = _load_d1(spot, strike, tau, sigma, rate, offs, m)
    tl.store(out + offs, _norm_cdf(d1), mask=m)


@triton.jit
def _gamma(spot, strike, tau, sigma, rate, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    S, K, T, v, r, sqt, d1 = _load_d1(spot, strike, tau, sigma, rate, offs, m)
    tl.store(out + offs, tl.exp(-0.5 * d1 * d1) * INV_SQRT_2PI / (S * v * sqt), mask=m)


@triton.jit
def _vega(spot, strike, tau, sigma, rate, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    S, K, T, v, r, sqt, d1 = _load_d1(spot, strike, tau, sigma, rate, offs, m)
    tl.store(out + offs, S * tl.exp(-0.5 * d1 * d1) * INV_SQRT_2PI * sqt * 0.01, mask=m)


@triton.jit
def _theta(spot, strike, tau, sigma, rate, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    S, K, T, v, r, sqt, d1 = _load_d1(spot, strike, tau, sigma, rate, offs, m)
    pdf1 = tl.exp(-0.5 * d1 * d1) * INV_SQRT_2PI
    carry = r * K * tl.exp(-r * T) * _norm_cdf(d1 - v * sqt)
    tl.store(out + offs, (-S * pdf1 * v / (2.0 * sqt) - carry) / 365.0, mask=m)


@triton.jit
def _rho(spot, strike, tau, sigma, rate, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    S, K, T, v, r, sqt, d1 = _load_d1(spot, strike, tau, sigma, rate, offs, m)
    tl.store(out + offs, K * T * tl.exp(-r * T) * _norm_cdf(d1 - v * sqt) * 0.01, mask=m)


def run(spot, strike, tau, sigma, rate):
    n = spot.numel()
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    outs = []
    for greek in (_delta, _gamma, _vega, _theta, _rho):
        out = torch.empty_like(spot)
        greek[grid](spot, strike, tau, sigma, rate, out, n, BLOCK=BLOCK, num_warps=4)
        outs.append(out)
    return tuple(outs)
