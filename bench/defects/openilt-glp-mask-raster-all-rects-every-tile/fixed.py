"""glp clip rasterisation: every 64x128 pixel tile of every clip ORs in the rectangles that cover it."""
import torch
import triton
import triton.language as tl

TILE_H = 64
TILE_W = 128


@triton.jit
def _raster_tile(rects, counts, mask, H, W, max_rects,
                 TILE_H: tl.constexpr, TILE_W: tl.constexpr):
    col0 = tl.program_id(0) * TILE_W
    row0 = tl.program_id(1) * TILE_H
    clip = tl.program_id(2)
    cols = col0 + tl.arange(0, TILE_W)
    rows = row0 + tl.arange(0, TILE_H)
    covered = tl.zeros([TILE_H, TILE_W], dtype=tl.int1)
    box = rects + clip * max_rects * 4
    n = tl.load(counts + clip)
    for r in range(0, n):
        x_lo = tl.load(box + 4 * r)
        y_lo = tl.load(box + 4 * r + 1)
        x_hi = tl.load(box + 4 * r + 2)
        y_hi = tl.load(box + 4 * r + 3)
        if (x_lo < col0 + TILE_W) & (x_hi > col0) & (y_lo < row0 + TILE_H) & (y_hi > row0):
            in_x = (cols >= x_lo) & (cols < x_hi)
            in_y = (rows >= y_lo) & (rows < y_hi)
            covered = covered | (in_y[:, None] & in_x[None, :])
    out = mask + clip * H * W + rows[:, None] * W + cols[None, :]
    keep = (rows[:, None] < H) & (cols[None, :] < W)
    tl.store(out, covered.to(tl.float32), mask=keep)


def run(rects: torch.Tensor, counts: torch.Tensor, H: int, W: int) -> torch.Tensor:
    B, max_rects, _ = rects.shape
    mask = torch.empty((B, H, W), device=rects.device, dtype=torch.float32)
    grid = (triton.cdiv(W, TILE_W), triton.cdiv(H, TILE_H), B)
    _raster_tile[grid](rects, counts, mask, H, W, max_rects,
                       TILE_H=TILE_H, TILE_W=TILE_W, num_warps=4)
    return mask
