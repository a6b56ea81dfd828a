"""Row max that masks the padding twice: other=-inf on the load, then tl.where on the same mask."""
import torch
import triton
import triton.language as tl


@triton.jit
def max_kernel(x_ptr, out_ptr, N, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=-float("inf"))
    x = tl.where(mask, x, -float("inf"))  # redundant: the load already filled the padding
    tl.store(out_ptr + row, tl.max(x, axis=0))


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, dtype=x.dtype, device=x.device)
    max_kernel[(M,)](x, out, N, x.stride(0), BLOCK=triton.next_power_of_2(N))
    return out
