"""SU sugain agc=1: divide every sample by the rms of its centred window of 2*half+1 samples."""
import torch
import triton
import triton.language as tl


@triton.jit
def _agc_trace(x, out, T, half, stride_tr, NC: tl.constexpr, CH: tl.constexpr, WB: tl.constexpr):
    tr = tl.program_id(0)
    row = x + tr * stride_tr
    c = tl.arange(0, NC)[:, None]
    t = c * CH + tl.arange(0, CH)[None, :]
    in_trace = t < T
    # window energy just before each chunk, summed directly
    w = tl.arange(0, WB)[None, :]
    s = c * CH - 1 - half + w
    xa = tl.load(row + s, mask=(w <= 2 * half) & (s >= 0) & (s < T), other=0.0)
    anchor = tl.sum(xa * xa, axis=1)
    # then slide: the sample at t+half enters, the one at t-half-1 leaves
    lead = t + half
    x_in = tl.load(row + lead, mask=lead < T, other=0.0)
    lag = t - half - 1
    x_out = tl.load(row + lag, mask=(lag >= 0) & (lag < T), other=0.0)
    energy = anchor[:, None] + tl.cumsum(x_in * x_in - x_out * x_out, axis=1)
    count = (tl.minimum(t + half, T - 1) - tl.maximum(t - half, 0) + 1).to(tl.float32)
    mean_sq = energy / count
    xc = tl.load(row + t, mask=in_trace, other=0.0)
    gained = tl.where(mean_sq > 0.0, xc / tl.sqrt(tl.maximum(mean_sq, 1e-30)), 0.0)
    tl.store(out + tr * stride_tr + t, gained, mask=in_trace)


def run(traces: torch.Tensor, half: int) -> torch.Tensor:
    S, R, T = traces.shape
    x = traces.reshape(S * R, T)
    out = torch.empty_like(x)
    BLOCK = triton.next_power_of_2(T)
    CH = min(128, BLOCK)
    WB = triton.next_power_of_2(2 * half + 1)
    launch = {"num_warps": 8 if BLOCK >= 2048 else 4}
    _agc_trace[(S * R,)](x, out, T, half, x.stride(0), NC=BLOCK // CH, CH=CH, WB=WB, **launch)
    return out.view(S, R, T)
