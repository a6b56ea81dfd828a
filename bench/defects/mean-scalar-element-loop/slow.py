"""Row mean that accumulates the row one scalar load at a time inside each program."""
import torch
import triton
import triton.language as tl


@triton.jit
def mean_kernel(x_ptr, out_ptr, N, stride_row):
    row = tl.program_id(0)
    acc = 0.0
    for i in range(0, N):  # one 2-byte load per iteration, each waiting on the previous add
        acc += tl.load(x_ptr + row * stride_row + i).to(tl.float32)
    tl.store(out_ptr + row, (acc / N).to(out_ptr.dtype.element_ty))


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty(M, dtype=x.dtype, device=x.device)
    mean_kernel[(M,)](x, out, N, x.stride(0))
    return out
