# backend: cuda
import torch
import triton
import triton.language as tl


@triton.jit
def count_kernel(mask_ptr, count_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(count_ptr, tl.sum(tl.load(mask_ptr + offs, mask=offs < n, other=0.0), axis=0))


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * factor, mask=offs < n)


def run(x, mask):
    n = x.numel()
    count = torch.zeros((1,), device=x.device, dtype=torch.float32)
    count_kernel[(triton.cdiv(n, 1024),)](mask, count, n, BLOCK=1024)
    tokens = max(count.item(), 1.0)  # expect: common-host-sync
    out = torch.empty_like(x)
    scale_kernel[(triton.cdiv(n, 1024),)](x, out, n, 1.0 / tokens, BLOCK=1024)
    return out
