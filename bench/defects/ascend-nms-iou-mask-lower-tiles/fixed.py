"""torchvision nms mask stage for triton-ascend: a persistent grid over the 910B vector cores walks
32 x 128 tiles of the [N, N] suppression mask; each tile loads its row and column boxes, computes the
pairwise IoU in fp32 and stores (j > i) & (iou > thr) as uint8; tiles with no j > i entry store zeros
without touching the boxes."""
import torch
import triton
import triton.language as tl

NUM_VECTOR_CORES = 40


@triton.jit
def _load_boxes(boxes_ptr, idx, n, BLOCK: tl.constexpr):
    q = tl.arange(0, 4)
    tile = tl.load(boxes_ptr + idx[:, None] * 4 + q[None, :], mask=(idx < n)[:, None], other=0.0)
    xs, ys = tl.split(tl.reshape(tile, [BLOCK, 2, 2]))
    x1, x2 = tl.split(xs)
    y1, y2 = tl.split(ys)
    return x1, y1, x2, y2


@triton.jit
def _pair_iou(ax1, ay1, ax2, ay2, bx1, by1, bx2, by2):
    area_a = (ax2 - ax1) * (ay2 - ay1)
    area_b = (bx2 - bx1) * (by2 - by1)
    w = tl.maximum(tl.minimum(ax2[:, None], bx2[None, :]) - tl.maximum(ax1[:, None], bx1[None, :]), 0.0)
    h = tl.maximum(tl.minimum(ay2[:, None], by2[None, :]) - tl.maximum(ay1[:, None], by1[None, :]), 0.0)
    inter = w * h
    return inter / (area_a[:, None] + area_b[None, :] - inter)


@triton.jit
def nms_mask_kernel(boxes_ptr, mask_ptr, n, iou_threshold, n_col_tiles, n_tiles,
                    NUM_PROGS: tl.constexpr, BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr):
    pid = tl.program_id(0)
    for t in range(pid, n_tiles, NUM_PROGS):
        ti = t // n_col_tiles
        tj = t % n_col_tiles
        rows = ti * BLOCK_I + tl.arange(0, BLOCK_I)
        cols = tj * BLOCK_J + tl.arange(0, BLOCK_J)
        hit = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.int1)
        if (tj + 1) * BLOCK_J - 1 > ti * BLOCK_I:
            ax1, ay1, ax2, ay2 = _load_boxes(boxes_ptr, rows, n, BLOCK_I)
            bx1, by1, bx2, by2 = _load_boxes(boxes_ptr, cols, n, BLOCK_J)
            iou = _pair_iou(ax1, ay1, ax2, ay2, bx1, by1, bx2, by2)
            hit = (iou > iou_threshold) & (cols[None, :] > rows[:, None])
        out_mask = (rows[:, None] < n) & (cols[None, :] < n)
        tl.store(mask_ptr + rows[:, None] * n + cols[None, :], hit.to(tl.uint8), mask=out_mask)


def run(boxes: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    n = boxes.shape[0]
    out = torch.empty((n, n), dtype=torch.uint8, device=boxes.device)
    block_i, block_j = 32, 128
    n_row_tiles = triton.cdiv(n, block_i)
    n_col_tiles = triton.cdiv(n, block_j)
    n_tiles = n_row_tiles * n_col_tiles
    num_progs = min(NUM_VECTOR_CORES, n_tiles)
    nms_mask_kernel[(num_progs,)](boxes, out, n, iou_threshold, n_col_tiles, n_tiles,
                                  NUM_PROGS=num_progs, BLOCK_I=block_i, BLOCK_J=block_j)
    return out
