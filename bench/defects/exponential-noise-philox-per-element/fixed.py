"""Exponential-race noise: out = probs / q with q = -log(1 - u); one Philox call (tl.rand4x) feeds four contiguous 1024-element sub-blocks."""
import torch
import triton
import triton.language as tl


@triton.jit
def _store_block(p_ptr, out_ptr, offs, n, u):
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, p / -tl.log(1.0 - u), mask=mask)


@triton.jit
def exponential_div_kernel(p_ptr, out_ptr, n, seed, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    lane = tl.arange(0, BLOCK)
    u0, u1, u2, u3 = tl.rand4x(seed, pid * BLOCK + lane)
    base = pid * 4 * BLOCK + lane
    _store_block(p_ptr, out_ptr, base, n, u0)
    _store_block(p_ptr, out_ptr, base + BLOCK, n, u1)
    _store_block(p_ptr, out_ptr, base + 2 * BLOCK, n, u2)
    _store_block(p_ptr, out_ptr, base + 3 * BLOCK, n, u3)


def run(probs: torch.Tensor, seed: int) -> torch.Tensor:
    out = torch.empty_like(probs)
    n = probs.numel()
    exponential_div_kernel[(triton.cdiv(n, 4 * 1024),)](probs, out, n, seed, BLOCK=1024)
    return out
