"""Wan2.2 per-token sinusoidal timestep embedding: cat(cos(t * f), sin(t * f)) for every token."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _timestep_embedding(t_ptr, out_ptr, HALF: tl.constexpr, LOG_PERIOD: tl.constexpr):
    token = tl.program_id(0)
    j = tl.arange(0, HALF)
    freqs = tl.exp(j.to(tl.float32) * (-LOG_PERIOD / HALF))
    t = tl.load(t_ptr + token)
    arg = t * freqs
    row = out_ptr + token * (2 * HALF)
    tl.store(row + j, tl.cos(arg))
    tl.store(row + HALF + j, tl.sin(arg))


def run(t: torch.Tensor, dim: int) -> torch.Tensor:
    n = t.shape[0]
    out = torch.empty((n, dim), device=t.device, dtype=torch.float32)
    _timestep_embedding[(n,)](t, out, HALF=dim // 2, LOG_PERIOD=math.log(10000.0))
    return out
