"""HDR+ merge: temporal merge of the aligned burst in half-overlapped 32x32 tiles, raised-cosine blend."""
import torch
import triton
import triton.language as tl

STEP = 16


@triton.jit
def _tile_weight(dist_ptr):
    d = tl.load(dist_ptr).to(tl.float32)
    norm = tl.maximum(d / 8.0 - 10.0 / 8.0, 1.0)
    return tl.where(norm > 290.0, 0.0, 1.0 / norm)


@triton.jit
def _mirror(v, size):
    v = tl.where(v < 0, -v, v)
    return tl.where(v > size - 1, 2 * (size - 1) - v, v)


@triton.jit
def _merge_cells(raw, off, dist, out, N, H, W, TX, TY, STEP: tl.constexpr):
    cx = tl.program_id(0)
    cy = tl.program_id(1)
    r = tl.arange(0, STEP)
    ys = cy * STEP + r
    xs = cx * STEP + r
    mask = (ys < H)[:, None] & (xs < W)[None, :]
    ref = tl.load(raw + ys[:, None] * W + xs[None, :], mask=mask, other=0).to(tl.float32)
    n_tiles = TX * TY
    acc = tl.zeros([STEP, STEP], dtype=tl.float32)
    for a in tl.static_range(2):              # a = 0: upper tile (inner row index r + 16), a = 1: lower
        ty = tl.minimum(tl.maximum(cy - 1 + a, 0), TY - 1)
        wy = 0.5 - 0.5 * tl.cos(6.283184 * ((r + (1 - a) * STEP).to(tl.float32) + 0.5) / (2 * STEP))
        for b in tl.static_range(2):          # b = 0: left tile (inner column index r + 16), b = 1: right
            tx = tl.minimum(tl.maximum(cx - 1 + b, 0), TX - 1)
            wx = 0.5 - 0.5 * tl.cos(6.283184 * ((r + (1 - b) * STEP).to(tl.float32) + 0.5) / (2 * STEP))
            t = ty * TX + tx
            total = 1.0
            val = ref
            for n in range(0, N - 1):
                wn = _tile_weight(dist + n * n_tiles + t)
                total += wn
                ox = tl.load(off + (n * n_tiles + t) * 2)
                oy = tl.load(off + (n * n_tiles + t) * 2 + 1)
                ay = _mirror(ys + oy, H)
                ax = _mirror(xs + ox, W)
                alt = tl.load(raw + (n + 1) * H * W + ay[:, None] * W + ax[None, :], mask=mask, other=0)
                val += wn * alt.to(tl.float32)
            acc += (wy[:, None] * wx[None, :] / total) * val
    tl.store(out + ys[:, None] * W + xs[None, :], acc, mask=mask)


def run(raw: torch.Tensor, off: torch.Tensor, dist: torch.Tensor) -> torch.Tensor:
    n, h, w = raw.shape
    ty_n, tx_n = off.shape[1], off.shape[2]
    out = torch.empty((h, w), dtype=torch.float32, device=raw.device)
    grid = (triton.cdiv(w, STEP), triton.cdiv(h, STEP))
    _merge_cells[grid](raw, off, dist, out, n, h, w, tx_n, ty_n, STEP=STEP, num_warps=2)
    return out
