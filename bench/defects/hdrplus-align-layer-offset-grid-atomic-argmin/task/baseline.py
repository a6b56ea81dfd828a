"""HDR+ align_layer on layer 0: L1 tile search around the layer-1 offset, argmin per tile."""
import torch
import triton
import triton.language as tl

TILE = 16
STEP = 8
SEARCH = 8


@triton.jit
def _align_tiles(layer, prev, out, H, W, TX, TY, PTX, PTY,
                 PREV_MIN: tl.constexpr, PREV_MAX: tl.constexpr,
                 TILE: tl.constexpr, STEP: tl.constexpr, SEARCH: tl.constexpr):
    t = tl.program_id(0)
    f = tl.program_id(1) + 1                      # alternate frame (frame 0 is the reference)
    ty = t // TX
    tx = t - ty * TX
    # coarse offset from the layer above, scaled to this layer
    pty = tl.minimum(tl.maximum(ty - 1, 0) // 4, PTY - 1)
    ptx = tl.minimum(tl.maximum(tx - 1, 0) // 4, PTX - 1)
    pp = prev + (((f - 1) * PTY + pty) * PTX + ptx) * 2
    px = tl.minimum(tl.maximum(tl.load(pp), PREV_MIN), PREV_MAX) * 4
    py = tl.minimum(tl.maximum(tl.load(pp + 1), PREV_MIN), PREV_MAX) * 4

    r = tl.arange(0, TILE)
    y0 = ty * STEP
    x0 = tx * STEP
    ref = tl.load(layer + (y0 + r)[:, None] * W + (x0 + r)[None, :]).to(tl.int32)
    alt_frame = layer + f * H * W

    best = tl.full([], 2147483647, tl.int32)
    best_k = tl.full([], 0, tl.int32)
    ybase = y0 + py - SEARCH // 2 + r
    xbase = x0 + px - SEARCH // 2 + r
    for dy in range(0, SEARCH):
        rows = alt_frame + (tl.minimum(tl.maximum(ybase + dy, 0), H - 1) * W)[:, None]
        for dx in range(0, SEARCH):
            cols = tl.minimum(tl.maximum(xbase + dx, 0), W - 1)
            alt = tl.load(rows + cols[None, :]).to(tl.int32)
            score = tl.sum(tl.abs(ref - alt))
            better = score < best
            best_k = tl.where(better, dy * SEARCH + dx, best_k)
            best = tl.minimum(score, best)

    o = out + ((f - 1) * TY * TX + t) * 2
    tl.store(o, px + best_k % SEARCH - SEARCH // 2)
    tl.store(o + 1, py + best_k // SEARCH - SEARCH // 2)


def run(layer: torch.Tensor, prev: torch.Tensor) -> torch.Tensor:
    n, h, w = layer.shape
    ty_n, tx_n = h // STEP - 1, w // STEP - 1
    out = torch.empty((n - 1, ty_n, tx_n, 2), dtype=torch.int32, device=layer.device)
    _align_tiles[(ty_n * tx_n, n - 1)](
        layer, prev, out, h, w, tx_n, ty_n, prev.shape[2], prev.shape[1],
        PREV_MIN=-20, PREV_MAX=15, TILE=TILE, STEP=STEP, SEARCH=SEARCH, num_warps=2)
    return out
