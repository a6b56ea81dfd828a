"""Scharr derivatives (Ix, Iy) of a batch of pyramid-level frames for pyramidal Lucas-Kanade."""
import torch
import triton
import triton.language as tl

_VECTOR_CORES = 40


@triton.jit
def _tap(src, ys, xs, H, W, DY: tl.constexpr, DX: tl.constexpr):
    yy = ys + DY
    xx = xs + DX
    m = ((yy >= 0) & (yy < H))[:, None] & ((xx >= 0) & (xx < W))[None, :]
    return tl.load(src + yy[:, None] * W + xx[None, :], mask=m, other=0.0)


@triton.jit
def _scharr_deriv_kernel(img, out, H, W, n_yblk, n_xblk, n_tiles,
                         BY: tl.constexpr, BX: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    HW = H * W
    per_img = n_yblk * n_xblk
    for t in range(pid, n_tiles, nprog):
        b = t // per_img
        r = t % per_img
        ys = (r // n_xblk) * BY + tl.arange(0, BY)
        xs = (r % n_xblk) * BX + tl.arange(0, BX)
        src = img + b * HW
        # row above
        a_m = _tap(src, ys, xs, H, W, -1, -1)
        a_c = _tap(src, ys, xs, H, W, -1, 0)
        a_p = _tap(src, ys, xs, H, W, -1, 1)
        gx = 3.0 * (a_p - a_m)
        gy = -(3.0 * a_m + 10.0 * a_c + 3.0 * a_p)
        # same row
        gx += 10.0 * (_tap(src, ys, xs, H, W, 0, 1) - _tap(src, ys, xs, H, W, 0, -1))
        # row below
        a_m = _tap(src, ys, xs, H, W, 1, -1)
        a_c = _tap(src, ys, xs, H, W, 1, 0)
        a_p = _tap(src, ys, xs, H, W, 1, 1)
        gx += 3.0 * (a_p - a_m)
        gy += 3.0 * a_m + 10.0 * a_c + 3.0 * a_p
        om = (ys < H)[:, None] & (xs < W)[None, :]
        dst = out + b * 2 * HW + ys[:, None] * W + xs[None, :]
        tl.store(dst, gx, mask=om)
        tl.store(dst + HW, gy, mask=om)


def run(img: torch.Tensor) -> torch.Tensor:
    B, H, W = img.shape
    out = torch.empty((B, 2, H, W), device=img.device, dtype=img.dtype)
    BY, BX = 8, 256
    n_yblk, n_xblk = triton.cdiv(H, BY), triton.cdiv(W, BX)
    n_tiles = B * n_yblk * n_xblk
    grid = (min(_VECTOR_CORES, n_tiles),)
    _scharr_deriv_kernel[grid](img, out, H, W, n_yblk, n_xblk, n_tiles, BY=BY, BX=BX)
    return out
