"""Black-Scholes implied vol: Newton on the premium with vega, from the Manaster-Koehler start."""
import torch
import triton
import triton.language as tl


@triton.jit
def _norm_cdf(x):
    return 0.5 + 0.5 * tl.math.erf(x * 0.7071067811865476)


@triton.jit
def _implied_vol(spot, strike, expiry, rate, premium, cp, vol, n, N_ITER: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    s = tl.load(spot + offs, mask=mask, other=1.0).to(tl.float64)
    k = tl.load(strike + offs, mask=mask, other=1.0).to(tl.float64)
    t = tl.load(expiry + offs, mask=mask, other=1.0).to(tl.float64)
    r = tl.load(rate + offs, mask=mask, other=0.0).to(tl.float64)
    p = tl.load(premium + offs, mask=mask, other=0.1).to(tl.float64)
    w = tl.load(cp + offs, mask=mask, other=1.0).to(tl.float64)
    sq_t = tl.sqrt(t)
    x = tl.log(s / k) + r * t
    disc_k = k * tl.exp(-r * t)
    sig = tl.minimum(tl.maximum(tl.sqrt(2.0 * tl.abs(x) / t), 0.05), 3.0)
    for _ in range(N_ITER):
        ssq = sig * sq_t
        d1 = x / ssq + 0.5 * ssq
        model = w * (s * _norm_cdf(w * d1) - disc_k * _norm_cdf(w * (d1 - ssq)))
        vega = s * sq_t * tl.exp(-0.5 * d1 * d1) * 0.3989422804014327
        sig = tl.minimum(tl.maximum(sig - (model - p) / vega, 1e-3), 5.0)
    tl.store(vol + offs, sig.to(tl.float32), mask=mask)


def run(spot, strike, expiry, rate, premium, cp) -> torch.Tensor:
    n = spot.numel()
    vol = torch.empty(n, device=spot.device, dtype=torch.float32)
    BLOCK = 512
    _implied_vol[(triton.cdiv(n, BLOCK),)](spot, strike, expiry, rate, premium, cp, vol, n,
                                           N_ITER=10, BLOCK=BLOCK, num_warps=4)
    return vol
