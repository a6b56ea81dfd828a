"""OpenPIV windef symmetric deformation: the window-centre predictor is interpolated to every pixel
and both frames are resampled half a displacement backwards / forwards (bilinear, mode='nearest')."""
import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _sample(img, y, dy, x, dx, H, W, m):
    """Bilinear sample of img at (y + dy, x + dx), y and x integer pixels, edges clamped."""
    fdy = tl.floor(dy)
    fdx = tl.floor(dx)
    iy = y + fdy.to(tl.int32)
    ix = x + fdx.to(tl.int32)
    ty = dy - fdy
    tx = dx - fdx
    ty = tl.where((iy < 0) | (iy >= H - 1), 0.0, ty)
    tx = tl.where((ix < 0) | (ix >= W - 1), 0.0, tx)
    iy = tl.minimum(tl.maximum(iy, 0), H - 1)
    ix = tl.minimum(tl.maximum(ix, 0), W - 1)
    iy1 = tl.minimum(iy + 1, H - 1)
    ix1 = tl.minimum(ix + 1, W - 1)
    p00 = tl.load(img + iy * W + ix, mask=m, other=0.0)
    p01 = tl.load(img + iy * W + ix1, mask=m, other=0.0)
    p10 = tl.load(img + iy1 * W + ix, mask=m, other=0.0)
    p11 = tl.load(img + iy1 * W + ix1, mask=m, other=0.0)
    top = p00 + tx * (p01 - p00)
    bot = p10 + tx * (p11 - p10)
    return top + ty * (bot - top)


@triton.jit
def _deform_pair(fa, fb, u, v, out_a, out_b, H, W, n_rows, n_cols, x0, inv_step,
                 BLOCK: tl.constexpr):
    x = tl.program_id(1)
    y = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = (x < W) & (y < H)

    # predictor at this pixel: bilinear on the window-centre grid, constant beyond the outer centres
    gx = tl.minimum(tl.maximum((x.to(tl.float32) - x0) * inv_step, 0.0), n_cols - 1.0)
    gy = tl.minimum(tl.maximum((y.to(tl.float32) - x0) * inv_step, 0.0), n_rows - 1.0)
    c0 = gx.to(tl.int32)
    r0 = gy.to(tl.int32)
    wx = gx - c0.to(tl.float32)
    wy = gy - r0.to(tl.float32)
    c1 = tl.minimum(c0 + 1, n_cols - 1)
    r1 = tl.minimum(r0 + 1, n_rows - 1)
    u00 = tl.load(u + r0 * n_cols + c0, mask=m, other=0.0)
    u01 = tl.load(u + r0 * n_cols + c1, mask=m, other=0.0)
    u10 = tl.load(u + r1 * n_cols + c0, mask=m, other=0.0)
    u11 = tl.load(u + r1 * n_cols + c1, mask=m, other=0.0)
    v00 = tl.load(v + r0 * n_cols + c0, mask=m, other=0.0)
    v01 = tl.load(v + r0 * n_cols + c1, mask=m, other=0.0)
    v10 = tl.load(v + r1 * n_cols + c0, mask=m, other=0.0)
    v11 = tl.load(v + r1 * n_cols + c1, mask=m, other=0.0)
    ut = (1.0 - wy) * ((1.0 - wx) * u00 + wx * u01) + wy * ((1.0 - wx) * u10 + wx * u11)
    vt = (1.0 - wy) * ((1.0 - wx) * v00 + wx * v01) + wy * ((1.0 - wx) * v10 + wx * v11)

    a = _sample(fa, y, -0.5 * vt, x, -0.5 * ut, H, W, m)
    b = _sample(fb, y, 0.5 * vt, x, 0.5 * ut, H, W, m)
    tl.store(out_a + y * W + x, a, mask=m)
    tl.store(out_b + y * W + x, b, mask=m)


def run(frame_a: torch.Tensor, frame_b: torch.Tensor, u: torch.Tensor, v: torch.Tensor,
        x0: float, step: int) -> tuple:
    H, W = frame_a.shape
    n_rows, n_cols = u.shape
    out_a = torch.empty_like(frame_a)
    out_b = torch.empty_like(frame_b)
    grid = (triton.cdiv(H, BLOCK), W)
    _deform_pair[grid](frame_a, frame_b, u, v, out_a, out_b, H, W, n_rows, n_cols,
                       float(x0), 1.0 / step, BLOCK=BLOCK, num_warps=4)
    return out_a, out_b
