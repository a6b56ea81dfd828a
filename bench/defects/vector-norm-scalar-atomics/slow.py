"""vector_norm (ord 2, dim=None): every 1024-element block adds its sum of squares to one fp32 scalar with an atomic, then a sqrt."""
import torch
import triton
import triton.language as tl


@triton.jit
def sum_squares_kernel(x_ptr, acc_ptr, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < N, other=0.0).to(tl.float32)
    tl.atomic_add(acc_ptr, tl.sum(x * x))


@triton.jit
def sqrt_kernel(acc_ptr):
    tl.store(acc_ptr, tl.sqrt(tl.load(acc_ptr)))


def run(x: torch.Tensor) -> torch.Tensor:
    N = x.numel()
    out = torch.zeros((), dtype=torch.float32, device=x.device)
    sum_squares_kernel[(triton.cdiv(N, 1024),)](x, out, N, BLOCK=1024)
    sqrt_kernel[(1,)](out)
    return out
