"""ObsPy Trace.detrend("linear") over a Stream: the least-squares line removed from every trace."""
import torch
import triton
import triton.language as tl

BLOCK = 4096


@triton.jit
def _detrend_linear(x, out, npts, t_mid, inv_n, inv_stt, BLOCK: tl.constexpr):
    trace = tl.program_id(0)
    src = x + trace * npts
    dst = out + trace * npts
    # pass 1: sum(x) and sum(tc * x) over the whole trace, tc = t - t_mid
    acc_x = tl.zeros([BLOCK], dtype=tl.float32)
    acc_tx = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, npts, BLOCK):
        t = start + tl.arange(0, BLOCK)
        ok = t < npts
        v = tl.load(src + t, mask=ok, other=0.0)
        acc_x += v
        acc_tx += (t.to(tl.float32) - t_mid) * v
    intercept = tl.sum(acc_x, axis=0) * inv_n
    slope = tl.sum(acc_tx, axis=0) * inv_stt
    # pass 2: subtract the fitted line
    for start in range(0, npts, BLOCK):
        t = start + tl.arange(0, BLOCK)
        ok = t < npts
        v = tl.load(src + t, mask=ok, other=0.0)
        tl.store(dst + t, v - intercept - slope * (t.to(tl.float32) - t_mid), mask=ok)


def run(x: torch.Tensor) -> torch.Tensor:
    n_traces, npts = x.shape
    out = torch.empty_like(x)
    t_mid = (npts - 1) / 2.0
    stt = npts * (npts * npts - 1) / 12.0  # sum of tc^2 for tc = t - t_mid
    _detrend_linear[(n_traces,)](x, out, npts, t_mid, 1.0 / npts, 1.0 / stt, BLOCK=BLOCK, num_warps=8)
    return out
