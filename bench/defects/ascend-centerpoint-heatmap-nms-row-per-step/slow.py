"""CenterPoint heatmap peak extraction: keep the cells equal to their 3 x 3 maximum."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _heatmap_nms(heat, out, n_rows, H, W, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    w = tl.arange(0, BLOCK_W)
    col_ok = w < W
    for row in range(pid, n_rows, nprog):
        h = row % H
        src = heat + row * W
        best = tl.full([BLOCK_W], float("-inf"), tl.float32)
        for dh in tl.static_range(3):
            hh = h + (dh - 1)
            row_ok = (hh >= 0) & (hh < H)
            for dw in tl.static_range(3):
                ww = w + (dw - 1)
                m = row_ok & (ww >= 0) & (ww < W)
                v = tl.load(src + (dh - 1) * W + ww, mask=m, other=float("-inf"))
                best = tl.maximum(best, v)
        centre = tl.load(src + w, mask=col_ok, other=0.0)
        tl.store(out + row * W + w, tl.where(centre == best, centre, 0.0), mask=col_ok)


def run(heat: torch.Tensor) -> torch.Tensor:
    B, C, H, W = heat.shape
    out = torch.empty_like(heat)
    n_rows = B * C * H
    grid = (max(1, min(NUM_CORES, n_rows)),)
    _heatmap_nms[grid](heat, out, n_rows, H, W, BLOCK_W=triton.next_power_of_2(W))
    return out
