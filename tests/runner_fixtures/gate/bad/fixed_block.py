"""Gate fixture (softmax): tuned to the test sizes: one 128-wide block per row, no mask, so rows longer
or shorter than 128 are wrong."""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride + cols, (e / tl.sum(e, axis=0)).to(out_ptr.dtype.element_ty))


def run(x):
    out = torch.empty_like(x)
    softmax_kernel[(x.shape[0],)](x, out, x.stride(0), BLOCK=128)
    return out
