"""Per-voice one-pole lowpass with a per-sample (envelope-modulated) cutoff: y = (1 - p) x + p y[n-1]."""
import math

import torch
import triton
import triton.language as tl

BLOCK_T = 1024


@triton.jit
def _compose(a1, b1, a2, b2):
    # apply (a1, b1) then (a2, b2): y -> a2 * (a1 * y + b1) + b2
    return a1 * a2, a2 * b1 + b2


@triton.jit
def _onepole_voice(x, fc, y_prev, y, T, row_stride, w, BLOCK_T: tl.constexpr):
    voice = tl.program_id(0)
    row = voice * row_stride
    state = tl.load(y_prev + voice)
    offs = tl.arange(0, BLOCK_T)
    # a tile of samples per step: the recurrence within the tile is an associative scan,
    # masked lanes get fc = 0 -> p = 1, b = 0 (the identity), so the last lane carries the state
    for t0 in range(0, T, BLOCK_T):
        n = t0 + offs
        ok = n < T
        p = tl.exp(tl.load(fc + row + n, mask=ok, other=0.0) * w)
        b = (1.0 - p) * tl.load(x + row + n, mask=ok, other=0.0)
        a_run, b_run = tl.associative_scan((p, b), 0, _compose)
        out = a_run * state + b_run
        tl.store(y + row + n, out, mask=ok)
        state = tl.sum(tl.where(offs == BLOCK_T - 1, out, 0.0), axis=0)


def run(x: torch.Tensor, fc: torch.Tensor, y_prev: torch.Tensor, sample_rate: float) -> torch.Tensor:
    V, T = x.shape
    y = torch.empty_like(x)
    _onepole_voice[(V,)](x, fc, y_prev, y, T, x.stride(0), -2.0 * math.pi / sample_rate,
                         BLOCK_T=BLOCK_T, num_warps=4)
    return y
