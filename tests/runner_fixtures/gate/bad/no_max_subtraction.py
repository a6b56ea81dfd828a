"""Gate fixture (softmax): exp without subtracting the row max, exact for the task's inputs, Inf/NaN once
the logits are large."""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, (e / tl.sum(e, axis=0)).to(out_ptr.dtype.element_ty), mask=mask)


def run(x):
    out = torch.empty_like(x)
    N = x.shape[1]
    softmax_kernel[(x.shape[0],)](x, out, N, x.stride(0), BLOCK=triton.next_power_of_2(N))
    return out
