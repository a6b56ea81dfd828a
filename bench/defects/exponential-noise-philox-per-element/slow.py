"""Exponential-race noise: out = probs / q with q = -log(1 - u), one Philox draw (tl.rand) per element."""
import torch
import triton
import triton.language as tl


@triton.jit
def exponential_div_kernel(p_ptr, out_ptr, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    u = tl.rand(seed, offs)
    q = -tl.log(1.0 - u)
    tl.store(out_ptr + offs, p / q, mask=mask)


def run(probs: torch.Tensor, seed: int) -> torch.Tensor:
    out = torch.empty_like(probs)
    n = probs.numel()
    exponential_div_kernel[(triton.cdiv(n, 1024),)](probs, out, n, seed, BLOCK=1024)
    return out
