"""Baseline count_nonzero: per-block counts with tl.sum into a mid buffer, then one program sums them."""
import torch
import triton
import triton.language as tl


@triton.jit
def _nonzero_flags(x_ptr, offs, n):
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    return (offs < n) & (x != 0)


@triton.jit
def count_nonzero_kernel(x_ptr, mid_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    hit = _nonzero_flags(x_ptr, offs, n)
    tl.store(mid_ptr + pid, tl.sum(hit.to(tl.int64), axis=0))


@triton.jit
def sum_mid_kernel(mid_ptr, out_ptr, n_mid, BLOCK_MID: tl.constexpr):
    acc = tl.zeros((BLOCK_MID,), dtype=tl.int64)
    for start in range(0, n_mid, BLOCK_MID):
        offs = start + tl.arange(0, BLOCK_MID)
        acc += tl.load(mid_ptr + offs, mask=offs < n_mid, other=0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def _launch(kernel, n: int, block: int, *args) -> None:
    kernel[(triton.cdiv(n, block),)](*args, n, BLOCK=block, num_warps=8)


def run(x: torch.Tensor) -> torch.Tensor:
    n_mid = triton.cdiv(x.numel(), 4096)
    mid = torch.empty(n_mid, dtype=torch.int64, device=x.device)
    out = torch.empty((), dtype=torch.int64, device=x.device)
    _launch(count_nonzero_kernel, x.numel(), 4096, x, mid)
    sum_mid_kernel[(1,)](mid, out, n_mid, BLOCK_MID=1024)
    return out
