"""SpyKING CIRCUS detection: negative threshold crossings that are local minima over +-R samples, per electrode."""
import torch
import triton
import triton.language as tl

BLOCK = 1024
RADIUS = 3


@triton.jit
def _detect_peaks(x, thr, peaks, n_time, chan, RADIUS: tl.constexpr, BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    row = x + chan * n_time
    inside = (t >= RADIUS) & (t < n_time - RADIUS)
    v = tl.load(row + t, mask=inside, other=0.0)
    is_peak = inside & (v < -tl.load(thr + chan))
    for k in tl.static_range(1, RADIUS + 1):
        before = tl.load(row + t - k, mask=inside, other=0.0)
        after = tl.load(row + t + k, mask=inside, other=0.0)
        is_peak = is_peak & (v < before) & (v <= after)
    tl.store(peaks + chan * n_time + t, is_peak.to(tl.int8), mask=t < n_time)


def run(x: torch.Tensor, thr: torch.Tensor) -> torch.Tensor:
    n_chan, n_time = x.shape
    peaks = torch.empty((n_chan, n_time), device=x.device, dtype=torch.int8)
    grid = (triton.cdiv(n_time, BLOCK),)
    for chan in range(n_chan):
        _detect_peaks[grid](x, thr, peaks, n_time, chan, RADIUS=RADIUS, BLOCK=BLOCK, num_warps=4)
    return peaks
