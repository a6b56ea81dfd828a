"""Segmentation cross-entropy on NCHW logits: [classes, pixels] tiles, coalesced along the pixel axis."""
import torch
import triton
import triton.language as tl

IGNORE_INDEX = 255


@triton.jit
def pixel_ce_kernel(logits_ptr, labels_ptr, loss_ptr, C, HW, stride_b, stride_c,
                    IGNORE: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_P: tl.constexpr):
    b = tl.program_id(0)
    p = tl.program_id(1) * BLOCK_P + tl.arange(0, BLOCK_P)
    cls = tl.arange(0, BLOCK_C)
    p_mask = p < HW
    mask = (cls < C)[:, None] & p_mask[None, :]
    x = tl.load(logits_ptr + b.to(tl.int64) * stride_b + cls[:, None] * stride_c + p[None, :],
                mask=mask, other=float("-inf"))
    label = tl.load(labels_ptr + b.to(tl.int64) * HW + p, mask=p_mask, other=IGNORE).to(tl.int32)
    m = tl.where(p_mask, tl.max(x, axis=0), 0.0)
    lse = m + tl.log(tl.sum(tl.exp(x - m[None, :]), axis=0))
    target = tl.sum(tl.where(cls[:, None] == label[None, :], x, 0.0), axis=0)
    loss = tl.where(label == IGNORE, 0.0, lse - target)
    tl.store(loss_ptr + b.to(tl.int64) * HW + p, loss, mask=p_mask)


def run(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    B, C, H, W = logits.shape
    loss = torch.empty((B, H, W), dtype=torch.float32, device=logits.device)
    BLOCK_C = triton.next_power_of_2(C)
    BLOCK_P = 128
    grid = (B, triton.cdiv(H * W, BLOCK_P))
    pixel_ce_kernel[grid](logits, labels, loss, C, H * W, logits.stride(0), logits.stride(1),
                          IGNORE=IGNORE_INDEX, BLOCK_C=BLOCK_C, BLOCK_P=BLOCK_P, num_warps=4)
    return loss
