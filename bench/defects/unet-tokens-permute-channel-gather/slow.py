"""NCHW -> (B, HW, C) tokens: one program per token, gathering its channels across the planes."""
import torch
import triton
import triton.language as tl


@triton.jit
def nchw_to_tokens_kernel(x_ptr, out_ptr, C, HW, BLOCK_C: tl.constexpr):
    tok = tl.program_id(0)          # b * HW + hw
    cblk = tl.program_id(1)
    b = tok // HW
    hw = tok % HW
    c = cblk * BLOCK_C + tl.arange(0, BLOCK_C)
    m = c < C
    v = tl.load(x_ptr + b * C * HW + c * HW + hw, mask=m)
    tl.store(out_ptr + tok * C + c, v, mask=m)


def run(x: torch.Tensor) -> torch.Tensor:
    B, C, H, W = x.shape
    HW = H * W
    out = torch.empty((B, HW, C), device=x.device, dtype=x.dtype)
    BLOCK_C = min(triton.next_power_of_2(C), 128)
    nchw_to_tokens_kernel[(B * HW, triton.cdiv(C, BLOCK_C))](x, out, C, HW, BLOCK_C=BLOCK_C)
    return out
