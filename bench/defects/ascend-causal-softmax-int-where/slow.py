"""Megatron-style scaled upper-triangular masked softmax: load the row, then mask the future
columns with tl.where(cols <= query, ...)."""
import torch
import triton
import triton.language as tl


@triton.jit
def scaled_masked_softmax_kernel(x_ptr, out_ptr, S, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    query = row % S
    cols = tl.arange(0, BLOCK)
    inb = cols < S
    x = tl.load(x_ptr + row * S + cols, mask=inb, other=-float("inf")).to(tl.float32) * scale
    x = tl.where(cols <= query, x, -float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    tl.store(out_ptr + row * S + cols, y.to(out_ptr.dtype.element_ty), mask=inb)


def run(x: torch.Tensor, scale: float) -> torch.Tensor:
    B, H, S, _ = x.shape
    out = torch.empty_like(x)
    scaled_masked_softmax_kernel[(B * H * S,)](x, out, S, scale, BLOCK=triton.next_power_of_2(S))
    return out
