"""Dejavu landmark hashing: each anchor peak paired with the next FAN-1 peaks of its track."""
import torch
import triton
import triton.language as tl

FAN = 15
MIN_DT = 0
MAX_DT = 200


@triton.jit
def _landmarks(freqs, times, n_peaks, keys, P,
               FAN: tl.constexpr, MIN_DT: tl.constexpr, MAX_DT: tl.constexpr, FAN_POW2: tl.constexpr):
    i = tl.program_id(0)
    b = tl.program_id(1)
    n = tl.load(n_peaks + b)
    row = b * P
    f1 = tl.load(freqs + row + i).to(tl.int64)
    t1 = tl.load(times + row + i)
    j = tl.arange(0, FAN_POW2)
    partner = i + j
    exists = (j >= 1) & (j < FAN) & (partner < n)
    f2 = tl.load(freqs + row + partner, mask=exists, other=0).to(tl.int64)
    t2 = tl.load(times + row + partner, mask=exists, other=0)
    dt = t2 - t1
    ok = exists & (dt >= MIN_DT) & (dt <= MAX_DT)
    key = (f1 << 20) | (f2 << 8) | dt.to(tl.int64)
    key = tl.where(ok, key, -1)
    tl.store(keys + (row + i) * (FAN - 1) + (j - 1), key, mask=(j >= 1) & (j < FAN))


def run(freqs: torch.Tensor, times: torch.Tensor, n_peaks: torch.Tensor) -> torch.Tensor:
    b, p = freqs.shape
    keys = torch.empty((b, p, FAN - 1), device=freqs.device, dtype=torch.int64)
    _landmarks[(p, b)](freqs, times, n_peaks, keys, p,
                       FAN=FAN, MIN_DT=MIN_DT, MAX_DT=MAX_DT, FAN_POW2=triton.next_power_of_2(FAN))
    return keys
