"""ObsPy Trace.detrend("linear") over a Stream: the least-squares line removed from every trace."""
import torch
import triton
import triton.language as tl

BLOCK = 4096
CHUNKS = 8  # blocks of BLOCK samples per program


@triton.jit
def _detrend_partials(x, partials, npts, t_mid, n_parts, BLOCK: tl.constexpr, CHUNKS: tl.constexpr):
    trace = tl.program_id(0)
    part = tl.program_id(1)
    src = x + trace * npts
    # this part's share of sum(x) and sum(tc * x), tc = t - t_mid
    acc_x = tl.zeros([BLOCK], dtype=tl.float32)
    acc_tx = tl.zeros([BLOCK], dtype=tl.float32)
    for c in range(CHUNKS):
        t = (part * CHUNKS + c) * BLOCK + tl.arange(0, BLOCK)
        ok = t < npts
        v = tl.load(src + t, mask=ok, other=0.0)
        acc_x += v
        acc_tx += (t.to(tl.float32) - t_mid) * v
    slot = partials + (trace * n_parts + part) * 2
    tl.store(slot, tl.sum(acc_x, axis=0))
    tl.store(slot + 1, tl.sum(acc_tx, axis=0))


@triton.jit
def _detrend_apply(x, out, partials, npts, t_mid, inv_n, inv_stt, n_parts,
                   BLOCK: tl.constexpr, CHUNKS: tl.constexpr, PARTS_POW2: tl.constexpr):
    trace = tl.program_id(0)
    part = tl.program_id(1)
    src = x + trace * npts
    dst = out + trace * npts
    p = tl.arange(0, PARTS_POW2)
    p_ok = p < n_parts
    row = partials + (trace * n_parts + p) * 2
    intercept = tl.sum(tl.load(row, mask=p_ok, other=0.0), axis=0) * inv_n
    slope = tl.sum(tl.load(row + 1, mask=p_ok, other=0.0), axis=0) * inv_stt
    # subtract the fitted line from this part
    for c in range(CHUNKS):
        t = (part * CHUNKS + c) * BLOCK + tl.arange(0, BLOCK)
        ok = t < npts
        v = tl.load(src + t, mask=ok, other=0.0)
        tl.store(dst + t, v - intercept - slope * (t.to(tl.float32) - t_mid), mask=ok)


def run(x: torch.Tensor) -> torch.Tensor:
    n_traces, npts = x.shape
    out = torch.empty_like(x)
    t_mid = (npts - 1) / 2.0
    stt = npts * (npts * npts - 1) / 12.0  # sum of tc^2 for tc = t - t_mid
    n_parts = triton.cdiv(npts, BLOCK * CHUNKS)
    partials = torch.empty((n_traces, n_parts, 2), device=x.device, dtype=torch.float32)
    grid = (n_traces, n_parts)
    _detrend_partials[grid](x, partials, npts, t_mid, n_parts, BLOCK=BLOCK, CHUNKS=CHUNKS, num_warps=8)
    _detrend_apply[grid](x, out, partials, npts, t_mid, 1.0 / npts, 1.0 / stt, n_parts,
                         BLOCK=BLOCK, CHUNKS=CHUNKS, PARTS_POW2=triton.next_power_of_2(n_parts), num_warps=8)
    return out
