"""Per-voice one-pole lowpass with a per-sample (envelope-modulated) cutoff: y = (1 - p) x + p y[n-1]."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _onepole_voice(x, fc, y_prev, y, T, row_stride, w):
    voice = tl.program_id(0)
    row = voice * row_stride
    state = tl.load(y_prev + voice)
    # Faust's compute() loop: one sample per step, the filter state carried in a register
    for n in range(T):
        p = tl.exp(tl.load(fc + row + n) * w)
        state = (1.0 - p) * tl.load(x + row + n) + p * state
        tl.store(y + row + n, state)


def run(x: torch.Tensor, fc: torch.Tensor, y_prev: torch.Tensor, sample_rate: float) -> torch.Tensor:
    V, T = x.shape
    y = torch.empty_like(x)
    _onepole_voice[(V,)](x, fc, y_prev, y, T, x.stride(0), -2.0 * math.pi / sample_rate, num_warps=4)
    return y
