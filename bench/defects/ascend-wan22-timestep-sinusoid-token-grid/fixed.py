"""Wan2.2 per-token sinusoidal timestep embedding: cat(cos(t * f), sin(t * f)) for every token."""
import math

import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40  # Atlas A2 (910B4): 20 AI cores x 2 vector units


@triton.jit
def _timestep_embedding(t_ptr, out_ptr, n, HALF: tl.constexpr, LOG_PERIOD: tl.constexpr,
                        BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK_T
    j = tl.arange(0, HALF)
    freqs = tl.exp(j.to(tl.float32) * (-LOG_PERIOD / HALF))
    for start in range(pid * BLOCK_T, n, step):
        tokens = start + tl.arange(0, BLOCK_T)
        keep = tokens < n
        t = tl.load(t_ptr + tokens, mask=keep, other=0.0)
        arg = t[:, None] * freqs[None, :]
        rows = out_ptr + tokens[:, None] * (2 * HALF) + j[None, :]
        tl.store(rows, tl.cos(arg), mask=keep[:, None])
        tl.store(rows + HALF, tl.sin(arg), mask=keep[:, None])


def run(t: torch.Tensor, dim: int) -> torch.Tensor:
    n = t.shape[0]
    out = torch.empty((n, dim), device=t.device, dtype=torch.float32)
    block_t = 32
    grid = (max(1, min(NUM_VECTOR_CORES, triton.cdiv(n, block_t))),)
    _timestep_embedding[grid](t, out, n, HALF=dim // 2, LOG_PERIOD=math.log(10000.0), BLOCK_T=block_t)
    return out
