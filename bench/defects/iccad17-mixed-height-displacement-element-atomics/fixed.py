"""Displacement after legalisation, totalled per cell-height class (sum, count, max)."""
import torch
import triton
import triton.language as tl

MAX_ROWS = 4


@triton.jit
def _displacement_stats(x, y, init_x, init_y, rows, disp_sum, cell_count, disp_max, n, inv_row_height,
                        BLOCK: tl.constexpr, NUM_CLASSES: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    cx = tl.load(x + offs, mask=valid, other=0.0)
    cy = tl.load(y + offs, mask=valid, other=0.0)
    x0 = tl.load(init_x + offs, mask=valid, other=0.0)
    y0 = tl.load(init_y + offs, mask=valid, other=0.0)
    cls = tl.load(rows + offs, mask=valid, other=0) - 1
    disp = (tl.abs(cx - x0) + tl.abs(cy - y0)) * inv_row_height
    classes = tl.arange(0, NUM_CLASSES)
    hit = (cls[:, None] == classes[None, :]) & valid[:, None]
    per_class = tl.where(hit, disp[:, None], 0.0)
    tl.atomic_add(disp_sum + classes, tl.sum(per_class, axis=0))
    tl.atomic_add(cell_count + classes, tl.sum(hit.to(tl.int32), axis=0))
    tl.atomic_max(disp_max + classes, tl.max(per_class, axis=0))


def run(x, y, init_x, init_y, rows, row_height):
    n = x.shape[0]
    disp_sum = torch.zeros(MAX_ROWS, device=x.device, dtype=torch.float32)
    cell_count = torch.zeros(MAX_ROWS, device=x.device, dtype=torch.int32)
    disp_max = torch.zeros(MAX_ROWS, device=x.device, dtype=torch.float32)
    BLOCK = 2048
    _displacement_stats[(triton.cdiv(n, BLOCK),)](x, y, init_x, init_y, rows, disp_sum, cell_count, disp_max,
                                                  n, 1.0 / row_height, BLOCK=BLOCK, NUM_CLASSES=MAX_ROWS,
                                                  num_warps=8)
    return disp_sum, cell_count, disp_max
