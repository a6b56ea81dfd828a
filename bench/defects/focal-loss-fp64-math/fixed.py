"""Sigmoid focal loss per element in fp32."""
import torch
import triton
import triton.language as tl


@triton.jit
def focal_loss_kernel(x_ptr, t_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    p = tl.sigmoid(x)
    ce = tl.maximum(x, 0.0) - x * t + tl.log(1.0 + tl.exp(-tl.abs(x)))
    one_minus_pt = 1.0 - (p * t + (1.0 - p) * (1.0 - t))
    loss = ce * one_minus_pt * one_minus_pt * (alpha * t + (1.0 - alpha) * (1.0 - t))
    tl.store(out_ptr + offs, loss.to(out_ptr.dtype.element_ty), mask=mask)


def run(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(logits)
    n = logits.numel()
    focal_loss_kernel[(triton.cdiv(n, 1024),)](logits, targets, out, n, 0.25, BLOCK=1024)
    return out
