"""Monte Carlo down-and-out calls with antithetic variates (QuantLib MCBarrierEngine) over an option book."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
CHUNK = 2048  # antithetic pairs per program


@triton.jit
def _barrier_mc(spot, strike, barrier, vol, rate, div, expiry, z, partial, n_steps, n_half, n_chunks,
                BLOCK: tl.constexpr, CHUNK: tl.constexpr):
    o = tl.program_id(0)
    c = tl.program_id(1)
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
    for start in range(c * CHUNK, c * CHUNK + CHUNK, BLOCK):
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
    tl.store(partial + o * n_chunks + c, tl.sum(acc, axis=0))


@triton.jit
def _discount_mean(partial, rate, expiry, price, n_chunks, n_half, CHUNKS_POW2: tl.constexpr):
    o = tl.program_id(0)
    cs = tl.arange(0, CHUNKS_POW2)
    total = tl.sum(tl.load(partial + o * n_chunks + cs, mask=cs < n_chunks, other=0.0), axis=0)
    tl.store(price + o, tl.exp(-tl.load(rate + o) * tl.load(expiry + o)) * total / n_half)


def run(spot, strike, barrier, vol, rate, div, expiry, z) -> torch.Tensor:
    n_opt = spot.shape[0]
    n_steps, n_half = z.shape
    n_chunks = triton.cdiv(n_half, CHUNK)
    partial = torch.empty((n_opt, n_chunks), device=spot.device, dtype=torch.float32)
    price = torch.empty(n_opt, device=spot.device, dtype=torch.float32)
    _barrier_mc[(n_opt, n_chunks)](spot, strike, barrier, vol, rate, div, expiry, z, partial,
                                   n_steps, n_half, n_chunks, BLOCK=BLOCK, CHUNK=CHUNK, num_warps=4)
    _discount_mean[(n_opt,)](partial, rate, expiry, price, n_chunks, n_half,
                             CHUNKS_POW2=triton.next_power_of_2(n_chunks), num_warps=4)
    return price
