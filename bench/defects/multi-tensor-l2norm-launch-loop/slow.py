"""Per-parameter L2 norms, one tensor at a time: for each parameter view a sum-of-squares launch (atomics into its slot) and a sqrt launch."""
import torch
import triton
import triton.language as tl


@triton.jit
def sumsq_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x * x, axis=0))


@triton.jit
def sqrt_kernel(out_ptr):
    tl.store(out_ptr, tl.sqrt(tl.load(out_ptr)))


def tensor_norm(x: torch.Tensor, out: torch.Tensor) -> None:
    n = x.numel()
    sumsq_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK=4096)
    sqrt_kernel[(1,)](out)


def run(flat: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    bounds = offsets.tolist()
    out = torch.zeros(len(bounds) - 1, dtype=torch.float32, device=flat.device)
    for i in range(len(bounds) - 1):
        tensor_norm(flat[bounds[i]:bounds[i + 1]], out[i])
    return out
