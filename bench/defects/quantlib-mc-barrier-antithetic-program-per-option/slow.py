"""Monte Carlo down-and-out calls with antithetic variates (QuantLib MCBarrierEngine) over an option book."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _barrier_mc(spot, strike, barrier, vol, rate, div, expiry, z, price, n_steps, n_half,
                BLOCK: tl.constexpr):
    o = tl.program_id(0)
    v = tl.load(vol + o)
    t_exp = tl.load(expiry + o)
    r = tl.load(rate + o)
    k_strike = tl.load(strike + o)
    dt = t_exp / n_steps
    mu = (r - tl.load(div + o) - 0.5 * v * v) * dt
    s = v * tl.sqrt(dt)
    lb = tl.log(tl.load(barrier + o))
    x0 = tl.log(tl.load(spot + o))
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_half, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        live = offs < n_half
        xp = tl.zeros([BLOCK], dtype=tl.float32) + x0
        xm = tl.zeros([BLOCK], dtype=tl.float32) + x0
        alive_p = live
        alive_m = live
        for k in range(n_steps):
            sz = s * tl.load(z + k * n_half + offs, mask=live, other=0.0)
            xp = xp + (mu + sz)
            xm = xm + (mu - sz)
            alive_p = alive_p & (xp > lb)
            alive_m = alive_m & (xm > lb)
        pay_p = tl.where(alive_p, tl.maximum(tl.exp(xp) - k_strike, 0.0), 0.0)
        pay_m = tl.where(alive_m, tl.maximum(tl.exp(xm) - k_strike, 0.0), 0.0)
        acc += 0.5 * (pay_p + pay_m)
    tl.store(price + o, tl.exp(-r * t_exp) * tl.sum(acc, axis=0) / n_half)


def run(spot, strike, barrier, vol, rate, div, expiry, z) -> torch.Tensor:
    n_opt = spot.shape[0]
    n_steps, n_half = z.shape
    price = torch.empty(n_opt, device=spot.device, dtype=torch.float32)
    _barrier_mc[(n_opt,)](spot, strike, barrier, vol, rate, div, expiry, z, price, n_steps, n_half,
                          BLOCK=BLOCK, num_warps=4)
    return price
