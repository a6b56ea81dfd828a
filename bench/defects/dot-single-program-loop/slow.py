"""torch.dot in one program that streams both vectors through a pipelined loop."""
import torch
import triton
import triton.language as tl


@triton.jit
def dot_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in tl.range(0, n, BLOCK, num_stages=4):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n
        acc += tl.load(a_ptr + offs, mask=m, other=0.0) * tl.load(b_ptr + offs, mask=m, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    out = torch.empty((), dtype=a.dtype, device=a.device)
    dot_kernel[(1,)](a, b, out, a.numel(), BLOCK=4096, num_warps=8)
    return out
