"""SwiGLU forward (MindSpeed-style, x.chunk(2, -1)), launched as on a GPU: one program per token row."""
import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_fwd_kernel(x_ptr, out_ptr, I, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    out_row = out_ptr + row * stride_out
    for start in range(0, I, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < I
        gate = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        up = tl.load(x_row + I + cols, mask=mask, other=0.0).to(tl.float32)
        out = gate * tl.sigmoid(gate) * up
        tl.store(out_row + cols, out.to(out_ptr.dtype.element_ty), mask=mask)


def run(x: torch.Tensor) -> torch.Tensor:
    M, two_i = x.shape
    I = two_i // 2
    out = torch.empty((M, I), dtype=x.dtype, device=x.device)
    BLOCK = min(4096, triton.next_power_of_2(I))
    swiglu_fwd_kernel[(M,)](x, out, I, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out
