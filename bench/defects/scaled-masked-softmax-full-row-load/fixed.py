"""Causal scaled softmax that loads only the visible columns (cols <= query) of each score row."""
import torch
import triton
import triton.language as tl


@triton.jit
def scaled_masked_softmax_kernel(x_ptr, out_ptr, S, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    query = row % S
    cols = tl.arange(0, BLOCK)
    valid = (cols < S) & (cols <= query)
    x = tl.load(x_ptr + row.to(tl.int64) * S + cols, mask=valid, other=-float("inf")).to(tl.float32)
    e = tl.exp(x * scale - tl.max(x * scale, axis=0))
    y = e / tl.sum(e, axis=0)
    tl.store(out_ptr + row.to(tl.int64) * S + cols, y.to(out_ptr.dtype.element_ty), mask=cols < S)


def run(x: torch.Tensor, scale: float) -> torch.Tensor:
    B, H, S, _ = x.shape
    out = torch.empty_like(x)
    scaled_masked_softmax_kernel[(B * H * S,)](x, out, S, scale, BLOCK=triton.next_power_of_2(S))
    return out
