"""NCHW -> (B, HW, C) tokens: [channels, tokens] tiles loaded along the contiguous axis and transposed on chip."""
import torch
import triton
import triton.language as tl


@triton.jit
def nchw_to_tokens_kernel(x_ptr, out_ptr, C, HW, BLOCK_HW: tl.constexpr, BLOCK_C: tl.constexpr):
    b = tl.program_id(0)
    hw = tl.program_id(1) * BLOCK_HW + tl.arange(0, BLOCK_HW)
    c = tl.program_id(2) * BLOCK_C + tl.arange(0, BLOCK_C)
    m = (c[:, None] < C) & (hw[None, :] < HW)
    tile = tl.load(x_ptr + b * C * HW + c[:, None] * HW + hw[None, :], mask=m)   # [BLOCK_C, BLOCK_HW]
    tl.store(out_ptr + b * HW * C + hw[:, None] * C + c[None, :], tl.trans(tile), mask=tl.trans(m))


def run(x: torch.Tensor) -> torch.Tensor:
    B, C, H, W = x.shape
    HW = H * W
    out = torch.empty((B, HW, C), device=x.device, dtype=x.dtype)
    BLOCK_HW, BLOCK_C = 64, 64
    grid = (B, triton.cdiv(HW, BLOCK_HW), triton.cdiv(C, BLOCK_C))
    nchw_to_tokens_kernel[grid](x, out, C, HW, BLOCK_HW=BLOCK_HW, BLOCK_C=BLOCK_C)
    return out
