"""Correct but unusual (softmax): a persistent kernel, a few programs striding over the rows."""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_persistent(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    for row in range(tl.program_id(0), M, tl.num_programs(0)):
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(out_ptr + row * stride_out + cols, (e / tl.sum(e, axis=0)).to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    out = torch.empty_like(x)
    softmax_persistent[(min(M, 4),)](x, out, M, N, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(N))
    return out
