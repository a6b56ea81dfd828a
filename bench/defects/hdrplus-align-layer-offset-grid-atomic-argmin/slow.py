"""HDR+ align_layer on layer 0: L1 tile search around the layer-1 offset, argmin per tile."""
import torch
import triton
import triton.language as tl

TILE = 16
STEP = 8
SEARCH = 8


@triton.jit
def _init_best(best, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(best + i, tl.full([BLOCK], 2147483647, tl.int32), mask=i < n)


@triton.jit
def _score_offset(layer, prev, best, H, W, TX, TY, PTX, PTY,
                  PREV_MIN: tl.constexpr, PREV_MAX: tl.constexpr,
                  TILE: tl.constexpr, STEP: tl.constexpr, SEARCH: tl.constexpr):
    k = tl.program_id(0)                          # candidate offset in the 8x8 search window
    t = tl.program_id(1)
    f = tl.program_id(2) + 1                      # alternate frame (frame 0 is the reference)
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

    dy = k // SEARCH
    dx = k % SEARCH
    ys = tl.minimum(tl.maximum(y0 + py - SEARCH // 2 + dy + r, 0), H - 1)
    xs = tl.minimum(tl.maximum(x0 + px - SEARCH // 2 + dx + r, 0), W - 1)
    alt = tl.load(alt_frame + ys[:, None] * W + xs[None, :]).to(tl.int32)
    score = tl.sum(tl.abs(ref - alt))
    # argmin across the window's programs: score and offset index packed so that the lowest score,
    # then the first offset in search order, wins
    tl.atomic_min(best + (f - 1) * TY * TX + t, score * (SEARCH * SEARCH) + k)


@triton.jit
def _pick_offset(best, prev, out, TX, TY, PTX, PTY, n_tiles,
                 PREV_MIN: tl.constexpr, PREV_MAX: tl.constexpr, SEARCH: tl.constexpr, BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    f = tl.program_id(1) + 1
    ok = t < n_tiles
    ty = t // TX
    tx = t - ty * TX
    pty = tl.minimum(tl.maximum(ty - 1, 0) // 4, PTY - 1)
    ptx = tl.minimum(tl.maximum(tx - 1, 0) // 4, PTX - 1)
    pp = prev + (((f - 1) * PTY + pty) * PTX + ptx) * 2
    px = tl.minimum(tl.maximum(tl.load(pp, mask=ok, other=0), PREV_MIN), PREV_MAX) * 4
    py = tl.minimum(tl.maximum(tl.load(pp + 1, mask=ok, other=0), PREV_MIN), PREV_MAX) * 4
    k = tl.load(best + (f - 1) * n_tiles + t, mask=ok, other=0) % (SEARCH * SEARCH)
    o = out + ((f - 1) * n_tiles + t) * 2
    tl.store(o, px + k % SEARCH - SEARCH // 2, mask=ok)
    tl.store(o + 1, py + k // SEARCH - SEARCH // 2, mask=ok)


def run(layer: torch.Tensor, prev: torch.Tensor) -> torch.Tensor:
    n, h, w = layer.shape
    ty_n, tx_n = h // STEP - 1, w // STEP - 1
    n_tiles = ty_n * tx_n
    best = torch.empty((n - 1, ty_n, tx_n), dtype=torch.int32, device=layer.device)
    out = torch.empty((n - 1, ty_n, tx_n, 2), dtype=torch.int32, device=layer.device)
    _init_best[(triton.cdiv(best.numel(), 1024),)](best, best.numel(), BLOCK=1024)
    _score_offset[(SEARCH * SEARCH, n_tiles, n - 1)](
        layer, prev, best, h, w, tx_n, ty_n, prev.shape[2], prev.shape[1],
        PREV_MIN=-20, PREV_MAX=15, TILE=TILE, STEP=STEP, SEARCH=SEARCH, num_warps=2)
    _pick_offset[(triton.cdiv(n_tiles, 256), n - 1)](
        best, prev, out, tx_n, ty_n, prev.shape[2], prev.shape[1], n_tiles,
        PREV_MIN=-20, PREV_MAX=15, SEARCH=SEARCH, BLOCK=256)
    return out
