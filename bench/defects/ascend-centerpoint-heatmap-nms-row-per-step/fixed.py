"""CenterPoint heatmap peak extraction: keep the cells equal to their 3 x 3 maximum."""
import torch
import triton
import triton.language as tl

NUM_CORES = 40


@triton.jit
def _heatmap_nms(heat, out, n_planes, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    hs = tl.arange(0, BLOCK_H)
    w = tl.arange(0, BLOCK_W)
    h_tiles = tl.cdiv(H, BLOCK_H)
    for t in range(pid, n_planes * h_tiles, nprog):
        plane = t // h_tiles
        h = (t % h_tiles) * BLOCK_H + hs
        src = heat + plane * H * W
        best = tl.full([BLOCK_H, BLOCK_W], float("-inf"), tl.float32)
        for dh in tl.static_range(3):
            hh = h + (dh - 1)
            row_ok = (hh >= 0) & (hh < H)
            for dw in tl.static_range(3):
                ww = w + (dw - 1)
                m = row_ok[:, None] & ((ww >= 0) & (ww < W))[None, :]
                v = tl.load(src + hh[:, None] * W + ww[None, :], mask=m, other=float("-inf"))
                best = tl.maximum(best, v)
        inside = (h < H)[:, None] & (w < W)[None, :]
        offs = plane * H * W + h[:, None] * W + w[None, :]
        centre = tl.load(heat + offs, mask=inside, other=0.0)
        tl.store(out + offs, tl.where(centre == best, centre, 0.0), mask=inside)


def run(heat: torch.Tensor) -> torch.Tensor:
    B, C, H, W = heat.shape
    out = torch.empty_like(heat)
    BLOCK_H = 8
    n_tiles = B * C * triton.cdiv(H, BLOCK_H)
    grid = (max(1, min(NUM_CORES, n_tiles)),)
    _heatmap_nms[grid](heat, out, B * C, H, W, BLOCK_H=BLOCK_H, BLOCK_W=triton.next_power_of_2(W))
    return out
