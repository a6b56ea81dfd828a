"""bincount as written for a GPU: every value bumps its bin with its own atomic add."""
import torch
import triton
import triton.language as tl


@triton.jit
def bincount_kernel(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < N
    v = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.atomic_add(out_ptr + v, 1, mask=mask)


def run(x: torch.Tensor, bins: int) -> torch.Tensor:
    n = x.numel()
    out = torch.zeros(bins, dtype=torch.int32, device=x.device)
    BLOCK = 4096
    bincount_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out
