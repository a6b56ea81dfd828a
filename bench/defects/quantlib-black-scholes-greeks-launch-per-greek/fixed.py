"""Black-Scholes-Merton price and Greeks (QuantLib BlackCalculator) over an option book."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
GREEKS = ("price", "delta", "gamma", "vega", "theta", "rho")


@triton.jit
def _cnd(x):
    return 0.5 * (1.0 + tl.math.erf(x * 0.7071067811865476))


@triton.jit
def _bs_greeks(spot, strike, expiry, vol, rate, div, phi, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    s = tl.load(spot + offs, mask=mask, other=1.0)
    k = tl.load(strike + offs, mask=mask, other=1.0)
    t = tl.load(expiry + offs, mask=mask, other=1.0)
    v = tl.load(vol + offs, mask=mask, other=1.0)
    r = tl.load(rate + offs, mask=mask, other=0.0)
    q = tl.load(div + offs, mask=mask, other=0.0)
    w = tl.load(phi + offs, mask=mask, other=1.0)
    sqt = tl.sqrt(t)
    sd = v * sqt
    d1 = (tl.log(s / k) + (r - q + 0.5 * v * v) * t) / sd
    d2 = d1 - sd
    dq = tl.exp(-q * t)
    dr = tl.exp(-r * t)
    n1 = _cnd(w * d1)
    n2 = _cnd(w * d2)
    pdf = tl.exp(-0.5 * d1 * d1) * 0.3989422804014327
    fwd_leg = s * dq
    strike_leg = k * dr
    tl.store(out + offs, w * (fwd_leg * n1 - strike_leg * n2), mask=mask)
    tl.store(out + n + offs, w * dq * n1, mask=mask)
    tl.store(out + 2 * n + offs, dq * pdf / (s * sd), mask=mask)
    tl.store(out + 3 * n + offs, fwd_leg * pdf * sqt, mask=mask)
    tl.store(out + 4 * n + offs,
             -fwd_leg * pdf * v / (2.0 * sqt) - w * r * strike_leg * n2 + w * q * fwd_leg * n1, mask=mask)
    tl.store(out + 5 * n + offs, w * strike_leg * t * n2, mask=mask)


def run(spot, strike, expiry, vol, rate, div, phi) -> torch.Tensor:
    n = spot.shape[0]
    out = torch.empty((len(GREEKS), n), device=spot.device, dtype=torch.float32)
    grid = (triton.cdiv(n, BLOCK),)
    _bs_greeks[grid](spot, strike, expiry, vol, rate, div, phi, out, n, BLOCK=BLOCK, num_warps=4)
    return out
