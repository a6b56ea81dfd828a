"""DB-net box score (PaddleOCR box_score_fast): mean probability inside each candidate quad."""
import torch
import triton
import triton.language as tl


@triton.jit
def _edge(ax, ay, bx, by, px, py):
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax)


@triton.jit
def _box_score_fast(pred, boxes, out, b, H, W, stride_h, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    q = boxes + b * 8
    x0 = tl.load(q + 0)
    y0 = tl.load(q + 1)
    x1 = tl.load(q + 2)
    y1 = tl.load(q + 3)
    x2 = tl.load(q + 4)
    y2 = tl.load(q + 5)
    x3 = tl.load(q + 6)
    y3 = tl.load(q + 7)
    lo_x = tl.floor(tl.minimum(tl.minimum(x0, x1), tl.minimum(x2, x3)))
    hi_x = tl.ceil(tl.maximum(tl.maximum(x0, x1), tl.maximum(x2, x3)))
    lo_y = tl.floor(tl.minimum(tl.minimum(y0, y1), tl.minimum(y2, y3)))
    hi_y = tl.ceil(tl.maximum(tl.maximum(y0, y1), tl.maximum(y2, y3)))
    x_start = tl.minimum(tl.maximum(lo_x, 0.0), W - 1.0).to(tl.int32)
    x_end = tl.minimum(tl.maximum(hi_x, 0.0), W - 1.0).to(tl.int32) + 1
    y_start = tl.minimum(tl.maximum(lo_y, 0.0), H - 1.0).to(tl.int32)
    y_end = tl.minimum(tl.maximum(hi_y, 0.0), H - 1.0).to(tl.int32) + 1
    acc = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
    cnt = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
    for r0 in range(y_start, y_end, BLOCK_H):
        rows = r0 + tl.arange(0, BLOCK_H)
        py = rows[:, None].to(tl.float32) + 0.5
        for c0 in range(x_start, x_end, BLOCK_W):
            cols = c0 + tl.arange(0, BLOCK_W)
            px = cols[None, :].to(tl.float32) + 0.5
            m = (rows[:, None] < y_end) & (cols[None, :] < x_end)
            v = tl.load(pred + rows[:, None] * stride_h + cols[None, :], mask=m, other=0.0)
            e0 = _edge(x0, y0, x1, y1, px, py)
            e1 = _edge(x1, y1, x2, y2, px, py)
            e2 = _edge(x2, y2, x3, y3, px, py)
            e3 = _edge(x3, y3, x0, y0, px, py)
            pos = (e0 >= 0) & (e1 >= 0) & (e2 >= 0) & (e3 >= 0)
            neg = (e0 <= 0) & (e1 <= 0) & (e2 <= 0) & (e3 <= 0)
            inside = m & (pos | neg)
            acc += tl.where(inside, v, 0.0)
            cnt += tl.where(inside, 1.0, 0.0)
    total = tl.sum(tl.sum(acc, axis=1), axis=0)
    n = tl.sum(tl.sum(cnt, axis=1), axis=0)
    tl.store(out + b, total / tl.maximum(n, 1.0))


@triton.jit
def _db_box_score(pred, boxes, out, b, H, W, stride_h, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    _box_score_fast(pred, boxes, out, b, H, W, stride_h, BLOCK_H, BLOCK_W)


def run(pred: torch.Tensor, boxes: torch.Tensor) -> torch.Tensor:
    H, W = pred.shape
    n = boxes.shape[0]
    scores = torch.empty(n, device=pred.device, dtype=torch.float32)
    for i in range(n):
        _db_box_score[(1,)](pred, boxes, scores, i, H, W, pred.stride(0), BLOCK_H=16, BLOCK_W=128)
    return scores
