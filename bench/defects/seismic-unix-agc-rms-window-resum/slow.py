"""SU sugain agc=1: divide every sample by the rms of its centred window of 2*half+1 samples."""
import torch
import triton
import triton.language as tl


@triton.jit
def _agc_tile(x, out, T, half, stride_tr, BLOCK_T: tl.constexpr):
    tr = tl.program_id(0)
    row = x + tr * stride_tr
    t = tl.program_id(1) * BLOCK_T + tl.arange(0, BLOCK_T)
    in_trace = t < T
    energy = tl.zeros([BLOCK_T], dtype=tl.float32)
    for k in range(0, 2 * half + 1):
        s = t + k - half
        v = tl.load(row + s, mask=(s >= 0) & (s < T), other=0.0)
        energy += v * v
    count = (tl.minimum(t + half, T - 1) - tl.maximum(t - half, 0) + 1).to(tl.float32)
    mean_sq = energy / count
    xc = tl.load(row + t, mask=in_trace, other=0.0)
    gained = tl.where(mean_sq > 0.0, xc / tl.sqrt(tl.maximum(mean_sq, 1e-30)), 0.0)
    tl.store(out + tr * stride_tr + t, gained, mask=in_trace)


def run(traces: torch.Tensor, half: int) -> torch.Tensor:
    S, R, T = traces.shape
    x = traces.reshape(S * R, T)
    out = torch.empty_like(x)
    BLOCK_T = 256
    grid = (S * R, triton.cdiv(T, BLOCK_T))
    _agc_tile[grid](x, out, T, half, x.stride(0), BLOCK_T=BLOCK_T, num_warps=4)
    return out.view(S, R, T)
