"""Precise satellite clock bias per observation (RTKLIB pephclk): bracket, interpolate, variance."""
import torch
import triton
import triton.language as tl

CLIGHT = tl.constexpr(299792458.0)
EXTERR_CLK = tl.constexpr(1e-3)
MAXDTE = tl.constexpr(900.0)
BLOCK = 128


@triton.jit
def _pephclk(obs_time, obs_sat, clk_time, clk_bias, clk_std, dts_out, var_out, q, nc, nsat, n_steps,
             BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    ok = offs < q
    t = tl.load(obs_time + offs, mask=ok, other=0.0)
    sat = tl.load(obs_sat + offs, mask=ok, other=0)

    # first clock record at or after t: binary search over [0, nc - 1] as in pephclk
    lo = tl.zeros([BLOCK], dtype=tl.int32)
    hi = tl.zeros([BLOCK], dtype=tl.int32) + (nc - 1)
    for _ in range(n_steps):
        mid = (lo + hi) >> 1
        go_right = tl.load(clk_time + mid) < t
        lo = tl.where(go_right & (lo < hi), mid + 1, lo)
        hi = tl.where(go_right, hi, mid)
    first = lo

    idx = tl.maximum(first - 1, 0)
    d0 = t - tl.load(clk_time + idx)
    d1 = t - tl.load(clk_time + idx + 1)
    at0 = idx * nsat + sat
    c0 = tl.load(clk_bias + at0, mask=ok, other=0.0)
    c1 = tl.load(clk_bias + at0 + nsat, mask=ok, other=0.0)
    s0 = tl.load(clk_std + at0, mask=ok, other=0.0).to(tl.float64) * CLIGHT
    s1 = tl.load(clk_std + at0 + nsat, mask=ok, other=0.0).to(tl.float64) * CLIGHT

    before = d0 <= 0.0
    after = d1 >= 0.0
    dts = tl.where(before, c0, tl.where(after, c1, (c1 * d0 - c0 * d1) / (d0 - d1)))
    std = tl.where(before, s0 - EXTERR_CLK * d0,
                   tl.where(after, s1 + EXTERR_CLK * d1,
                            tl.where(d0 < -d1, s0 + EXTERR_CLK * tl.abs(d0), s1 + EXTERR_CLK * tl.abs(d1))))
    used = tl.where(before, c0 != 0.0, tl.where(after, c1 != 0.0, (c0 != 0.0) & (c1 != 0.0)))
    t_first = tl.load(clk_time)
    t_last = tl.load(clk_time + nc - 1)
    valid = used & (t - t_first >= -MAXDTE) & (t - t_last <= MAXDTE)
    tl.store(dts_out + offs, tl.where(valid, dts, 0.0), mask=ok)
    tl.store(var_out + offs, tl.where(valid, std * std, 0.0), mask=ok)


def run(obs_time: torch.Tensor, obs_sat: torch.Tensor, clk_time: torch.Tensor,
        clk_bias: torch.Tensor, clk_std: torch.Tensor) -> tuple:
    q = obs_time.shape[0]
    nc, nsat = clk_bias.shape
    dts = torch.empty(q, device=obs_time.device, dtype=torch.float64)
    var = torch.empty(q, device=obs_time.device, dtype=torch.float64)
    n_steps = max(1, (nc - 1).bit_length())
    _pephclk[(triton.cdiv(q, BLOCK),)](obs_time, obs_sat, clk_time, clk_bias, clk_std, dts, var, q, nc, nsat,
                                       n_steps, BLOCK=BLOCK, num_warps=4)
    return dts, var
