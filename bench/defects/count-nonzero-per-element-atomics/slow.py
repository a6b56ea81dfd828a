"""count_nonzero ported from the CUDA kernel `if (x[i] != 0) atomicAdd(count, 1)`: a FlagGems-style wrapper around a flat kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def _nonzero_flags(x_ptr, offs, n):
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    return (offs < n) & (x != 0)


@triton.jit
def count_nonzero_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    hit = _nonzero_flags(x_ptr, offs, n)
    ones = tl.full((BLOCK,), 1, dtype=tl.int64)
    tl.atomic_add(out_ptr + offs * 0, ones, mask=hit)


def _launch(kernel, n: int, block: int, *args) -> None:
    kernel[(triton.cdiv(n, block),)](*args, n, BLOCK=block, num_warps=8)


def run(x: torch.Tensor) -> torch.Tensor:
    out = torch.zeros((), dtype=torch.int64, device=x.device)
    _launch(count_nonzero_kernel, x.numel(), 4096, x, out)
    return out
