"""Bucketize: a vectorised binary search (lower bound) over the sorted boundaries."""
import torch
import triton
import triton.language as tl


@triton.jit
def bucketize_kernel(x_ptr, bnd_ptr, out_ptr, n, NB, BLOCK: tl.constexpr, STEPS: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    lo = tl.zeros((BLOCK,), dtype=tl.int32)
    hi = tl.full((BLOCK,), NB, dtype=tl.int32)
    for _ in tl.static_range(STEPS):
        active = lo < hi
        mid = (lo + hi) // 2
        below = tl.load(bnd_ptr + mid, mask=active, other=0.0) < x
        lo = tl.where(active & below, mid + 1, lo)
        hi = tl.where(active & ~below, mid, hi)
    tl.store(out_ptr + offs, lo.to(tl.int64), mask=mask)


def run(x: torch.Tensor, boundaries: torch.Tensor) -> torch.Tensor:
    out = torch.empty(x.shape, dtype=torch.int64, device=x.device)
    n = x.numel()
    nb = boundaries.numel()
    bucketize_kernel[(triton.cdiv(n, 1024),)](x, boundaries, out, n, nb, BLOCK=1024, STEPS=max(1, nb.bit_length()))
    return out
