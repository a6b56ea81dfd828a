"""Local Laplacian, finest level: outGPyramid[0] = upsample(outGPyramid[1]) + outLPyramid[0]."""
import torch
import triton
import triton.language as tl

BLOCK_Y = 8
BLOCK_X = 128


@triton.jit
def _upsample(plane, ya, yb, xa, xb, W2, mask):
    """Halide's bilinear upsample (0.75 on the nearer, 0.25 on the farther level-1 sample) in x, then y."""
    f_aa = tl.load(plane + ya * W2 + xa, mask=mask, other=0.0)
    f_ab = tl.load(plane + ya * W2 + xb, mask=mask, other=0.0)
    f_ba = tl.load(plane + yb * W2 + xa, mask=mask, other=0.0)
    f_bb = tl.load(plane + yb * W2 + xb, mask=mask, other=0.0)
    return 0.25 * (0.25 * f_bb + 0.75 * f_ba) + 0.75 * (0.25 * f_ab + 0.75 * f_aa)


@triton.jit
def _processed_level0(gray_v, idx, k, lut, beta, inv_levels, LUT_MID, mask):
    """gPyramid[0] at intensity level k (an int tensor): remap lookup around the level."""
    lvl = k.to(tl.float32) * inv_levels
    return beta * (gray_v - lvl) + lvl + tl.load(lut + idx - 256 * k + LUT_MID, mask=mask, other=0.0)


@triton.jit
def _collapse_level0(gray, g1, out1, lut, out, beta, H, W, H2, W2, K,
                     BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr):
    ys = tl.program_id(1) * BLOCK_Y + tl.arange(0, BLOCK_Y)
    xs = tl.program_id(0) * BLOCK_X + tl.arange(0, BLOCK_X)
    mask = (ys < H)[:, None] & (xs < W)[None, :]
    offs = ys[:, None] * W + xs[None, :]
    gv = tl.load(gray + offs, mask=mask, other=0.0)

    # which two processed levels bracket each pixel, and where it sits between them
    level = gv * (K - 1)
    idx = tl.minimum(tl.maximum((level * 256.0).to(tl.int32), 0), (K - 1) * 256)
    li = tl.minimum(tl.maximum(level.to(tl.int32), 0), K - 2)
    lf = level - li.to(tl.float32)

    # level-1 neighbours for the upsample, clamped to the level-1 grid
    ya = tl.minimum(ys // 2, H2 - 1)[:, None]
    yb = tl.minimum(tl.maximum(ys // 2 - 1 + 2 * (ys % 2), 0), H2 - 1)[:, None]
    xa = tl.minimum(xs // 2, W2 - 1)[None, :]
    xb = tl.minimum(tl.maximum(xs // 2 - 1 + 2 * (xs % 2), 0), W2 - 1)[None, :]

    inv_levels = 1.0 / (K - 1)
    lut_mid = (K - 1) * 256
    plane = H2 * W2
    # lPyramid[0] = gPyramid[0] - upsample(gPyramid[1]) at the two bracketing levels only
    lap_lo = _processed_level0(gv, idx, li, lut, beta, inv_levels, lut_mid, mask) \
        - _upsample(g1 + li * plane, ya, yb, xa, xb, W2, mask)
    lap_hi = _processed_level0(gv, idx, li + 1, lut, beta, inv_levels, lut_mid, mask) \
        - _upsample(g1 + (li + 1) * plane, ya, yb, xa, xb, W2, mask)
    out_l = (1.0 - lf) * lap_lo + lf * lap_hi
    res = _upsample(out1, ya, yb, xa, xb, W2, mask) + out_l
    tl.store(out + offs, res, mask=mask)


def run(gray: torch.Tensor, g1: torch.Tensor, out1: torch.Tensor, lut: torch.Tensor, beta: float) -> torch.Tensor:
    h, w = gray.shape
    n_levels, h2, w2 = g1.shape
    out = torch.empty((h, w), dtype=torch.float32, device=gray.device)
    grid = (triton.cdiv(w, BLOCK_X), triton.cdiv(h, BLOCK_Y))
    _collapse_level0[grid](gray, g1, out1, lut, out, beta, h, w, h2, w2, n_levels,
                           BLOCK_Y=BLOCK_Y, BLOCK_X=BLOCK_X, num_warps=4)
    return out
