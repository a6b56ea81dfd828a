"""torch.histc ported from the CUDA atomicAdd-per-element kernel: every value adds 1 to its bin."""
import torch
import triton
import triton.language as tl


@triton.jit
def _bin_of(x, lo, hi, BINS: tl.constexpr):
    b = ((x - lo) * (BINS / (hi - lo))).to(tl.int32)
    b = tl.where(x == hi, BINS - 1, b)
    return b, (x >= lo) & (x <= hi)


@triton.jit
def histc_kernel(x_ptr, hist_ptr, n, lo, hi, BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=hi + 1.0)
    b, inside = _bin_of(x, lo, hi, BINS)
    tl.atomic_add(hist_ptr + b, tl.full((BLOCK,), 1.0, tl.float32), mask=inside)


def run(x: torch.Tensor, bins: int, lo: float, hi: float) -> torch.Tensor:
    hist = torch.zeros(bins, dtype=torch.float32, device=x.device)
    n = x.numel()
    histc_kernel[(triton.cdiv(n, 4096),)](x, hist, n, lo, hi, BINS=bins, BLOCK=4096, num_warps=8)
    return hist
