"""outer: both vectors broadcast to [M, N] on the host, then the flat elementwise mul kernel."""
import torch
import triton
import triton.language as tl


@triton.jit
def mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * y, mask=mask)


def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, N = a.shape[0], b.shape[0]
    # the mul kernel wants two same-shape contiguous operands
    lhs = a.unsqueeze(1).expand(M, N).contiguous()
    rhs = b.unsqueeze(0).expand(M, N).contiguous()
    out = torch.empty((M, N), dtype=a.dtype, device=a.device)
    mul_kernel[(triton.cdiv(M * N, 1024),)](lhs, rhs, out, M * N, BLOCK=1024)
    return out
