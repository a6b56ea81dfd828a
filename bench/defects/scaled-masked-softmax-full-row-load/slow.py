"""Causal scaled softmax that loads the whole score row and masks the future columns afterwards."""
import torch
import triton
import triton.language as tl


@triton.jit
def scaled_masked_softmax_kernel(x_ptr, out_ptr, S, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    query = row % S
    cols = tl.arange(0, BLOCK)
    in_row = cols < S
    x = tl.load(x_ptr + row.to(tl.int64) * S + cols, mask=in_row, other=0.0).to(tl.float32)
    x = tl.where(in_row & (cols <= query), x * scale, -float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    tl.store(out_ptr + row.to(tl.int64) * S + cols, y.to(out_ptr.dtype.element_ty), mask=in_row)


def run(x: torch.Tensor, scale: float) -> torch.Tensor:
    B, H, S, _ = x.shape
    out = torch.empty_like(x)
    scaled_masked_softmax_kernel[(B * H * S,)](x, out, S, scale, BLOCK=triton.next_power_of_2(S))
    return out
