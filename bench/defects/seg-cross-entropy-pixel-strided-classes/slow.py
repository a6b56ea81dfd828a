"""Segmentation cross-entropy on NCHW logits: the LM cross-entropy row kernel, one program per pixel,
walking the classes with the channel stride."""
import torch
import triton
import triton.language as tl

IGNORE_INDEX = 255


@triton.jit
def pixel_ce_kernel(logits_ptr, labels_ptr, loss_ptr, C, HW, stride_b, stride_c,
                    IGNORE: tl.constexpr, BLOCK_C: tl.constexpr):
    pix = tl.program_id(0)
    b = pix // HW
    p = pix % HW
    cls = tl.arange(0, BLOCK_C)
    x = tl.load(logits_ptr + b * stride_b + cls * stride_c + p, mask=cls < C, other=float("-inf"))
    label = tl.load(labels_ptr + pix).to(tl.int32)
    m = tl.max(x, axis=0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), axis=0))
    target = tl.sum(tl.where(cls == label, x, 0.0), axis=0)
    loss = tl.where(label == IGNORE, 0.0, lse - target)
    tl.store(loss_ptr + pix, loss)


def run(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    B, C, H, W = logits.shape
    loss = torch.empty((B, H, W), dtype=torch.float32, device=logits.device)
    BLOCK_C = triton.next_power_of_2(C)
    pixel_ce_kernel[(B * H * W,)](logits, labels, loss, C, H * W, logits.stride(0), logits.stride(1),
                                  IGNORE=IGNORE_INDEX, BLOCK_C=BLOCK_C, num_warps=1)
    return loss
