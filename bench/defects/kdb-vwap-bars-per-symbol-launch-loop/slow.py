"""One-minute VWAP bars per symbol from a (sym, time)-sorted trade table."""
import torch
import triton
import triton.language as tl

BLOCK = 128


@triton.jit
def _vwap_bars(price, size, bar_start, vwap, volume, BLOCK: tl.constexpr):
    b = tl.program_id(0)
    lo = tl.load(bar_start + b)
    hi = tl.load(bar_start + b + 1)
    acc_pv = tl.zeros([BLOCK], dtype=tl.float32)
    acc_q = tl.zeros([BLOCK], dtype=tl.int32)
    for i in range(lo, hi, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        ok = offs < hi
        p = tl.load(price + offs, mask=ok, other=0.0)
        q = tl.load(size + offs, mask=ok, other=0)
        acc_pv += p * q.to(tl.float32)
        acc_q += q
    pv = tl.sum(acc_pv, axis=0)
    q_tot = tl.sum(acc_q, axis=0)
    tl.store(vwap + b, tl.where(q_tot > 0, pv / tl.maximum(q_tot, 1).to(tl.float32), 0.0))
    tl.store(volume + b, q_tot)


def run(price: torch.Tensor, size: torch.Tensor, bar_start: torch.Tensor) -> tuple:
    n_sym, n_bars = bar_start.shape[0], bar_start.shape[1] - 1
    vwap = torch.empty(n_sym, n_bars, device=price.device, dtype=torch.float32)
    volume = torch.empty(n_sym, n_bars, device=price.device, dtype=torch.int32)
    for s in range(n_sym):
        _vwap_bars[(n_bars,)](price, size, bar_start[s], vwap[s], volume[s], BLOCK=BLOCK)
    return vwap, volume
