"""Row mean with the row loaded as one vector block and reduced with tl.sum."""
import torch
import triton
import triton.language as tl


@triton.jit
def mean_kernel(x_ptr, out_ptr, N, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_row + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(out_ptr + row, (tl.sum(x, axis=0) / N).to(out_ptr.dtype.element_ty))


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, dtype=x.dtype, device=x.device)
    mean_kernel[(M,)](x, out, N, x.stride(0), BLOCK=triton.next_power_of_2(N))
    return out
