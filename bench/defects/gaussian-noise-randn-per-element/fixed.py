"""Diffusion add_noise: one Philox call (tl.randn4x) feeds four contiguous 1024-element sub-blocks."""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _noise_block(x_ptr, out_ptr, offs, n, signal, noise, eps):
    mask = offs < n
    x0 = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, signal * x0 + noise * eps, mask=mask)


@triton.jit
def add_noise_kernel(x_ptr, out_ptr, n, signal, noise, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    lane = tl.arange(0, BLOCK)
    e0, e1, e2, e3 = tl.randn4x(seed, pid * BLOCK + lane)
    base = pid * 4 * BLOCK + lane
    _noise_block(x_ptr, out_ptr, base, n, signal, noise, e0)
    _noise_block(x_ptr, out_ptr, base + BLOCK, n, signal, noise, e1)
    _noise_block(x_ptr, out_ptr, base + 2 * BLOCK, n, signal, noise, e2)
    _noise_block(x_ptr, out_ptr, base + 3 * BLOCK, n, signal, noise, e3)


def run(x0: torch.Tensor, alpha_bar: float, seed: int) -> torch.Tensor:
    out = torch.empty_like(x0)
    n = x0.numel()
    BLOCK = 1024
    add_noise_kernel[(triton.cdiv(n, 4 * BLOCK),)](x0, out, n, math.sqrt(alpha_bar), math.sqrt(1.0 - alpha_bar),
                                                   seed, BLOCK=BLOCK, num_warps=4)
    return out
