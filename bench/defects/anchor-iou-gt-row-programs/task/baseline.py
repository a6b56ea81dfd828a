"""Anchor matching IoU: a 2-D grid of (ground-truth box, block of anchors) programs."""
import torch
import triton
import triton.language as tl


@triton.jit
def _pair_iou(gx1, gy1, gx2, gy2, g_area, ax1, ay1, ax2, ay2):
    a_area = (ax2 - ax1) * (ay2 - ay1)
    iw = tl.maximum(tl.minimum(gx2, ax2) - tl.maximum(gx1, ax1), 0.0)
    ih = tl.maximum(tl.minimum(gy2, ay2) - tl.maximum(gy1, ay1), 0.0)
    inter = iw * ih
    return inter / (g_area + a_area - inter)


@triton.jit
def gt_anchor_iou_kernel(gt_ptr, anc_ptr, out_ptr, num_anchors, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    blk = tl.program_id(1)
    gx1 = tl.load(gt_ptr + g * 4 + 0)
    gy1 = tl.load(gt_ptr + g * 4 + 1)
    gx2 = tl.load(gt_ptr + g * 4 + 2)
    gy2 = tl.load(gt_ptr + g * 4 + 3)
    g_area = (gx2 - gx1) * (gy2 - gy1)
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    m = offs < num_anchors
    ax1 = tl.load(anc_ptr + offs * 4 + 0, mask=m, other=0.0)
    ay1 = tl.load(anc_ptr + offs * 4 + 1, mask=m, other=0.0)
    ax2 = tl.load(anc_ptr + offs * 4 + 2, mask=m, other=1.0)
    ay2 = tl.load(anc_ptr + offs * 4 + 3, mask=m, other=1.0)
    iou = _pair_iou(gx1, gy1, gx2, gy2, g_area, ax1, ay1, ax2, ay2)
    tl.store(out_ptr + g * num_anchors + offs, iou, mask=m)


def run(gt: torch.Tensor, anchors: torch.Tensor) -> torch.Tensor:
    G, A = gt.shape[0], anchors.shape[0]
    out = torch.empty((G, A), device=gt.device, dtype=torch.float32)
    BLOCK = 1024
    gt_anchor_iou_kernel[(G, triton.cdiv(A, BLOCK))](gt, anchors, out, A, BLOCK=BLOCK)
    return out
