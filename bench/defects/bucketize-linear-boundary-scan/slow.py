"""Bucketize: each value counts the boundaries below it, 32 boundaries per step as a broadcast compare."""
import torch
import triton
import triton.language as tl


@triton.jit
def bucketize_kernel(x_ptr, bnd_ptr, out_ptr, n, NB, BLOCK: tl.constexpr, BLOCK_B: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    count = tl.zeros((BLOCK,), dtype=tl.int32)
    for start in range(0, NB, BLOCK_B):
        bs = start + tl.arange(0, BLOCK_B)
        b = tl.load(bnd_ptr + bs, mask=bs < NB, other=float("inf"))
        count += tl.sum((b[None, :] < x[:, None]).to(tl.int32), axis=1)
    tl.store(out_ptr + offs, count.to(tl.int64), mask=mask)


def run(x: torch.Tensor, boundaries: torch.Tensor) -> torch.Tensor:
    out = torch.empty(x.shape, dtype=torch.int64, device=x.device)
    n = x.numel()
    bucketize_kernel[(triton.cdiv(n, 256),)](x, boundaries, out, n, boundaries.numel(), BLOCK=256, BLOCK_B=32)
    return out
