"""detectron2 paste_masks_in_image in Triton: a program per (column tile, row tile, instance) maps its pixel
centres into the instance's mask; tiles whose corner coordinates reach the mask's footprint sample it bilinearly
with zero padding, the rest store the threshold of zero, and every pixel gets the thresholded value."""
import torch
import triton
import triton.language as tl


@triton.jit
def _mask_coord(pix, lo, hi, SIZE: tl.constexpr):
    g = (pix.to(tl.float32) + 0.5 - lo) / (hi - lo) * 2.0 - 1.0
    return ((g + 1.0) * SIZE - 1.0) * 0.5


@triton.jit
def _bilinear(mask_ptr, sy, sx, M: tl.constexpr):
    fy = tl.floor(sy)
    fx = tl.floor(sx)
    wy = sy - fy
    wx = sx - fx
    y0 = fy.to(tl.int32)
    x0 = fx.to(tl.int32)
    vy0 = (y0 >= 0) & (y0 < M)
    vy1 = (y0 >= -1) & (y0 < M - 1)
    vx0 = (x0 >= 0) & (x0 < M)
    vx1 = (x0 >= -1) & (x0 < M - 1)
    top = mask_ptr + (y0 * M)[:, None] + x0[None, :]
    bot = top + M
    v00 = tl.load(top, mask=vy0[:, None] & vx0[None, :], other=0.0)
    v01 = tl.load(top + 1, mask=vy0[:, None] & vx1[None, :], other=0.0)
    v10 = tl.load(bot, mask=vy1[:, None] & vx0[None, :], other=0.0)
    v11 = tl.load(bot + 1, mask=vy1[:, None] & vx1[None, :], other=0.0)
    upper = v00 * (1.0 - wx)[None, :] + v01 * wx[None, :]
    lower = v10 * (1.0 - wx)[None, :] + v11 * wx[None, :]
    return upper * (1.0 - wy)[:, None] + lower * wy[:, None]


@triton.jit
def paste_mask_kernel(mask_ptr, box_ptr, out_ptr, img_h, img_w, threshold,
                      M: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid_x = tl.program_id(0)
    pid_y = tl.program_id(1)
    r = tl.program_id(2)
    bx0 = tl.load(box_ptr + r * 4 + 0)
    by0 = tl.load(box_ptr + r * 4 + 1)
    bx1 = tl.load(box_ptr + r * 4 + 2)
    by1 = tl.load(box_ptr + r * 4 + 3)
    cols = pid_x * BLOCK_W + tl.arange(0, BLOCK_W)
    rows = pid_y * BLOCK_H + tl.arange(0, BLOCK_H)
    dst = out_ptr + r * img_h * img_w + rows[:, None] * img_w + cols[None, :]
    inside = (rows < img_h)[:, None] & (cols < img_w)[None, :]
    col0 = pid_x * BLOCK_W
    row0 = pid_y * BLOCK_H
    near_x = (_mask_coord(col0 + BLOCK_W - 1, bx0, bx1, M) > -1.0) & (_mask_coord(col0, bx0, bx1, M) < M)
    near_y = (_mask_coord(row0 + BLOCK_H - 1, by0, by1, M) > -1.0) & (_mask_coord(row0, by0, by1, M) < M)
    if near_x & near_y:
        sx = _mask_coord(cols, bx0, bx1, M)
        sy = _mask_coord(rows, by0, by1, M)
        val = _bilinear(mask_ptr + r * M * M, sy, sx, M)
        tl.store(dst, val >= threshold, mask=inside)
    else:
        tl.store(dst, tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32) >= threshold, mask=inside)


def run(masks: torch.Tensor, boxes: torch.Tensor, img_h: int, img_w: int, threshold: float) -> torch.Tensor:
    R, M = masks.shape[0], masks.shape[-1]
    out = torch.empty((R, img_h, img_w), device=masks.device, dtype=torch.bool)
    tiles = {"BLOCK_H": 32, "BLOCK_W": 256}
    grid = (triton.cdiv(img_w, tiles["BLOCK_W"]), triton.cdiv(img_h, tiles["BLOCK_H"]), R)
    paste_mask_kernel[grid](masks, boxes, out, img_h, img_w, threshold, M=M, num_warps=8, **tiles)
    return out
