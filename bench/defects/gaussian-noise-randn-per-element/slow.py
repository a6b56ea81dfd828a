"""Diffusion add_noise: a flat elementwise kernel drawing one normal (tl.randn) per element."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def add_noise_kernel(x_ptr, out_ptr, n, signal, noise, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x0 = tl.load(x_ptr + offs, mask=mask)
    eps = tl.randn(seed, offs)
    tl.store(out_ptr + offs, signal * x0 + noise * eps, mask=mask)


def run(x0: torch.Tensor, alpha_bar: float, seed: int) -> torch.Tensor:
    out = torch.empty_like(x0)
    n = x0.numel()
    BLOCK = 1024
    add_noise_kernel[(triton.cdiv(n, BLOCK),)](x0, out, n, math.sqrt(alpha_bar), math.sqrt(1.0 - alpha_bar),
                                               seed, BLOCK=BLOCK, num_warps=4)
    return out
