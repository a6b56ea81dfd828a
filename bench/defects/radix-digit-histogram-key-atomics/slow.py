"""Radix-sort upfront histogram, ported from the textbook CUDA kernel: every key bumps its digit's
global counter with an atomic add; the grid's second axis is the digit pass."""
import torch
import triton
import triton.language as tl

RADIX_BITS = 8
NUM_PASSES = 32 // RADIX_BITS


@triton.jit
def _digit(keys, shift, is_top: tl.constexpr):
    d = (keys >> shift) & 255
    if is_top:
        d = d ^ 128          # flip the sign bit: negative keys first
    return d


@triton.jit
def digit_histogram_kernel(keys_ptr, hist_ptr, n, BLOCK: tl.constexpr, RADIX: tl.constexpr):
    pid = tl.program_id(0)
    p = tl.program_id(1)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    keys = tl.load(keys_ptr + offs, mask=mask, other=0)
    shift = p * 8
    if p == 3:
        d = _digit(keys, shift, True)
    else:
        d = _digit(keys, shift, False)
    tl.atomic_add(hist_ptr + p * RADIX + d, 1, mask=mask)


def run(keys: torch.Tensor) -> torch.Tensor:
    n = keys.numel()
    radix = 1 << RADIX_BITS
    hist = torch.zeros(NUM_PASSES, radix, dtype=torch.int32, device=keys.device)
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK), NUM_PASSES)
    digit_histogram_kernel[grid](keys, hist, n, BLOCK=BLOCK, RADIX=radix)
    return hist
