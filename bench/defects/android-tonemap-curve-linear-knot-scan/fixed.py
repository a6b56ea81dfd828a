"""Per-channel piecewise-linear tone curve (camera2 contrast curve) applied to linear 16-bit RGB."""
import torch
import triton
import triton.language as tl


@triton.jit
def _tonemap(rgb, curve_x, curve_y, out, n_pix, n_pts, SEARCH_STEPS: tl.constexpr, BLOCK: tl.constexpr):
    c = tl.program_id(1)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n_pix
    v = tl.load(rgb + c * n_pix + offs, mask=m, other=0).to(tl.float32) * (1.0 / 65535.0)
    xs = curve_x + c * n_pts
    ys = curve_y + c * n_pts
    # seg = the last point index in [0, n_pts - 2] with xs[seg] <= v (curve_x is increasing, xs[0] = 0)
    seg = tl.zeros([BLOCK], dtype=tl.int32)
    for i in tl.static_range(SEARCH_STEPS):
        cand = seg + (1 << (SEARCH_STEPS - 1 - i))
        b = tl.load(xs + cand, mask=cand <= n_pts - 2, other=float("inf"))
        seg = tl.where(b <= v, cand, seg)
    x0 = tl.load(xs + seg)
    x1 = tl.load(xs + seg + 1)
    y0 = tl.load(ys + seg)
    y1 = tl.load(ys + seg + 1)
    res = y0 + (v - x0) * ((y1 - y0) / (x1 - x0))
    tl.store(out + c * n_pix + offs, res, mask=m)


def run(rgb: torch.Tensor, curve_x: torch.Tensor, curve_y: torch.Tensor) -> torch.Tensor:
    C, H, W = rgb.shape
    n_pts = curve_x.shape[1]
    n_pix = H * W
    out = torch.empty(C, H, W, device=rgb.device, dtype=torch.float32)
    BLOCK = 1024
    steps = (n_pts - 2).bit_length()
    _tonemap[(triton.cdiv(n_pix, BLOCK), C)](rgb, curve_x, curve_y, out, n_pix, n_pts,
                                             SEARCH_STEPS=steps, BLOCK=BLOCK, num_warps=4)
    return out
