"""APSIM / CERES 3-hourly thermal time, accumulated from sowing over a gridded season (Ascend)."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40
_BLOCK = 1024


@triton.jit
def _thermal_time_season(tmax, tmin, sow, cum, D, N, stride_d, tbase, topt, tmaxc,
                         BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    slope = (topt - tbase) / (tmaxc - topt)
    for blk in range(pid, tl.cdiv(N, BLOCK), nprog):
        cells = blk * BLOCK + tl.arange(0, BLOCK)
        mask = cells < N
        s = tl.load(sow + cells, mask=mask, other=0).to(tl.float32)
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for day in range(D):
            hi = tl.load(tmax + day * stride_d + cells, mask=mask, other=0.0)
            lo = tl.load(tmin + day * stride_d + cells, mask=mask, other=0.0)
            rng = hi - lo
            tt = tl.zeros([BLOCK], dtype=tl.float32)
            for p in tl.static_range(1, 9):
                fac = 0.92105 + 0.1140 * p - 0.0703 * p * p + 0.0053 * p * p * p
                t = lo + fac * rng
                f = tl.where(t <= topt, t - tbase, slope * (tmaxc - t))
                f = tl.where((t > tbase) & (t < tmaxc), f, 0.0)
                tt += f
            tt = tt * 0.125
            tt = tl.where(day >= s, tt, 0.0)
            acc += tt
            tl.store(cum + day * stride_d + cells, acc, mask=mask)


def run(tmax: torch.Tensor, tmin: torch.Tensor, sow: torch.Tensor,
        tbase: float, topt: float, tmaxc: float) -> torch.Tensor:
    D, N = tmax.shape
    cum = torch.empty((D, N), device=tmax.device, dtype=torch.float32)
    grid = (min(_VECTOR_CORES, triton.cdiv(N, _BLOCK)),)
    # the whole season in one launch: each program carries its cells' running sum over the days
    _thermal_time_season[grid](tmax, tmin, sow, cum, D, N, tmax.stride(0),
                               tbase, topt, tmaxc, BLOCK=_BLOCK)
    return cum
